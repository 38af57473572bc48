# case: a 2-d tiled view loaded with three indices
# sig: x=float32[?, ?]
# expect: 9:31: TileTypeError: Invalid argument "index" of load(): Index size 3 does not match the tiled view rank 2
import cuda.tile as ct


@ct.kernel
def k(x):
    x.tiled_view((2, 2)).load((0, 0, 0))
