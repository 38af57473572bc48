# case: mma int8 float acc
# sig: a=int8[?, ?], b=int8[?, ?], c=float32[?, ?]
# expect: 12:49: TileTypeError: mma(): Unsupported acc dtype float32 for int8 operands; expected int32
import cuda.tile as ct


@ct.kernel
def k(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(16, 32))
    y = ct.load(b, index=(0, 0), shape=(32, 16))
    acc = ct.zeros((16, 16), dtype=ct.float32)
    ct.store(c, index=(0, 0), tile=ct.mma(x, y, acc))
