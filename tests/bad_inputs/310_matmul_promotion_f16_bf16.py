# case: matmul promotion f16 bf16
# sig: a=float16[?, ?], b=bfloat16[?, ?], c=float32[?, ?]
# expect: 12:36: TileTypeError: matmul(): Implicit promotion of float16 and bfloat16 is not supported
import cuda.tile as ct


@ct.kernel
def k(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(16, 16))
    y = ct.load(b, index=(0, 0), shape=(16, 16))
    acc = ct.zeros((16, 16), dtype=ct.float32)
    ct.store(c, index=(0, 0), tile=ct.matmul(x, y).astype(ct.float32) + acc)
