# case: ct.full with a string fill value
# sig: x=float32[?, ?]
# expect: 9:21: TileTypeError: Invalid argument "fill_value" of full(): Expected a scalar or a 0D tile, but given value has type str
import cuda.tile as ct


@ct.kernel
def k(x):
    ct.full((4, 4), "foo", dtype=ct.int32)
