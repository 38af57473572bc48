# case: ct.printf with a tile where the format string goes
# sig: 
# expect: 10:15: TileTypeError: Invalid argument "format" of printf(): Expected a string constant, but given value is not constant
import cuda.tile as ct


@ct.kernel
def k():
    x = ct.full((1,), 0, dtype=ct.float32)
    ct.printf(x)
