# case: mma operand dtypes differ
# sig: a=float16[?, ?], b=bfloat16[?, ?], c=float32[?, ?]
# expect: 12:36: TileTypeError: mma(): x and y must have the same dtype, got float16 and bfloat16
import cuda.tile as ct


@ct.kernel
def k(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(16, 16))
    y = ct.load(b, index=(0, 0), shape=(16, 16))
    acc = ct.zeros((16, 16), dtype=ct.float32)
    ct.store(c, index=(0, 0), tile=ct.mma(x, y, acc))
