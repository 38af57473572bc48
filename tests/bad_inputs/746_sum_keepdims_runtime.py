# case: ct.sum with keepdims from a run-time bool parameter
# sig: keepdims=bool
# expect: 10:18: TileTypeError: Invalid argument "keepdims" of sum(): Expected a boolean constant, but given value is not constant
import cuda.tile as ct


@ct.kernel
def k(keepdims: bool):
    x = ct.full((1,), 0, dtype=ct.float32)
    ct.sum(x, 0, keepdims=keepdims)
