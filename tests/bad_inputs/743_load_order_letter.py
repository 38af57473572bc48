# case: load with order='A'
# sig: x=float32[?, ?]
# expect: 9:38: TileTypeError: Invalid argument "order" of load(): Expected 'C' or 'F', got 'A'
import cuda.tile as ct


@ct.kernel
def k(x):
    ct.load(x, (0, 0), shape=(2, 2), order='A')
