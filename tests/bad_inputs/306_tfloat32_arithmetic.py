# case: tfloat32 arithmetic
# sig: a=float32[?, ?], b=float32[?, ?], c=float32[?, ?]
# expect: 12:37: TileTypeError: Non-arithmetic dtype tfloat32 is unsupported for +
import cuda.tile as ct


@ct.kernel
def k(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(16, 16)).astype(ct.tfloat32)
    y = ct.load(b, index=(0, 0), shape=(16, 16))
    acc = ct.zeros((16, 16), dtype=ct.float32)
    ct.store(c, index=(0, 0), tile=(x + x).astype(ct.float32))
