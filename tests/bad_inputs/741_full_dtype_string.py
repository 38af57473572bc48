# case: ct.full with a string for dtype
# sig: x=float32[?, ?]
# expect: 9:24: TileTypeError: Invalid argument "dtype" of full(): Expected a dtype constant, but given value has type str
import cuda.tile as ct


@ct.kernel
def k(x):
    ct.full((4, 4), 1, dtype="foo")
