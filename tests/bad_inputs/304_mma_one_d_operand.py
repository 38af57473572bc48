# case: mma one d operand
# sig: a=float16[?], b=float16[?, ?], c=float32[?, ?]
# expect: 12:43: TileTypeError: mma(): x must be at least 2-D, got shape (16,)
import cuda.tile as ct


@ct.kernel
def k(a, b, c):
    x = ct.load(a, index=(0,), shape=(16,))
    y = ct.load(b, index=(0, 0), shape=(16, 16))
    acc = ct.zeros((1, 16), dtype=ct.float32)
    ct.store(c, index=(0, 0), tile=ct.mma(x, y, acc))
