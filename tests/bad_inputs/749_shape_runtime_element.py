# case: a run-time scalar inside the shape tuple
# sig: x=float32[?, ?], i=int32
# expect: 9:24: TileTypeError: Invalid argument "shape" of load(): Expected a constant integer tuple, but given value is not constant (element #1)
import cuda.tile as ct


@ct.kernel
def k(x, i):
    ct.load(x, (0, 0), shape=(2, i))
