# case: a float constant inside the shape tuple
# sig: x=float32[?, ?]
# expect: 9:24: TileTypeError: Invalid argument "shape" of load(): Expected a tuple of integers, but element #1 has type Tile[float32,()]
import cuda.tile as ct


@ct.kernel
def k(x):
    ct.load(x, (0, 0), shape=(2, 2.0))
