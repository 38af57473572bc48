# case: matmul int32 operands
# sig: a=int32[?, ?], b=int32[?, ?], c=int32[?, ?]
# expect: 12:36: TileTypeError: matmul(): Unsupported input dtype int32
import cuda.tile as ct


@ct.kernel
def k(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(16, 16))
    y = ct.load(b, index=(0, 0), shape=(16, 16))
    acc = ct.zeros((16, 16), dtype=ct.int32)
    ct.store(c, index=(0, 0), tile=x @ y + acc)
