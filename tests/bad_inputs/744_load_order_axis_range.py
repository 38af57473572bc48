# case: load with an order axis past the rank
# sig: x=float32[?, ?]
# expect: 9:38: TileTypeError: Invalid argument "order" of load(): Axis 3 is out of range for rank 2
import cuda.tile as ct


@ct.kernel
def k(x):
    ct.load(x, (0, 0), shape=(2, 2), order=(0, 3))
