# case: mma k dims differ
# sig: a=float16[?, ?], b=float16[?, ?], c=float32[?, ?]
# expect: 12:36: TileTypeError: mma(): the K dims differ: x is (16, 32) (K = 32) and y is (16, 16) (K = 16)
import cuda.tile as ct


@ct.kernel
def k(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(16, 32))
    y = ct.load(b, index=(0, 0), shape=(16, 16))
    acc = ct.zeros((16, 16), dtype=ct.float32)
    ct.store(c, index=(0, 0), tile=ct.mma(x, y, acc))
