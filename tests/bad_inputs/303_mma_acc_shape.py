# case: mma acc shape
# sig: a=float16[?, ?], b=float16[?, ?], c=float32[?, ?]
# expect: 12:49: TileTypeError: mma(): acc has shape (16, 32) but x (16, 16) times y (16, 16) gives (16, 16)
import cuda.tile as ct


@ct.kernel
def k(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(16, 16))
    y = ct.load(b, index=(0, 0), shape=(16, 16))
    acc = ct.zeros((16, 32), dtype=ct.float32)
    ct.store(c, index=(0, 0), tile=ct.mma(x, y, acc))
