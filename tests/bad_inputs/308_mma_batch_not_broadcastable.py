# case: mma batch not broadcastable
# sig: a=float16[?, ?, ?], b=float16[?, ?, ?], c=float32[?, ?, ?]
# expect: 12:39: TileTypeError: Shapes (2,) and (4,) are not broadcastable
import cuda.tile as ct


@ct.kernel
def k(a, b, c):
    x = ct.load(a, index=(0, 0, 0), shape=(2, 16, 16))
    y = ct.load(b, index=(0, 0, 0), shape=(4, 16, 16))
    acc = ct.zeros((4, 16, 16), dtype=ct.float32)
    ct.store(c, index=(0, 0, 0), tile=ct.mma(x, y, acc))
