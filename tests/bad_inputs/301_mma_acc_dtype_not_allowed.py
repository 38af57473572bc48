# case: mma acc dtype not allowed
# sig: a=bfloat16[?, ?], b=bfloat16[?, ?], c=float16[?, ?]
# expect: 12:49: TileTypeError: mma(): Unsupported acc dtype float16 for bfloat16 operands; expected float32
import cuda.tile as ct


@ct.kernel
def k(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(16, 16))
    y = ct.load(b, index=(0, 0), shape=(16, 16))
    acc = ct.zeros((16, 16), dtype=ct.float16)
    ct.store(c, index=(0, 0), tile=ct.mma(x, y, acc))
