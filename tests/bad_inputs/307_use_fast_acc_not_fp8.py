# case: use fast acc not fp8
# sig: a=float16[?, ?], b=float16[?, ?], c=float32[?, ?]
# expect: 12:36: TileTypeError: mma(): use_fast_acc is only supported for fp8 operands (float8_e4m3fn, float8_e5m2), got float16
import cuda.tile as ct


@ct.kernel
def k(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(16, 16))
    y = ct.load(b, index=(0, 0), shape=(16, 16))
    acc = ct.zeros((16, 16), dtype=ct.float32)
    ct.store(c, index=(0, 0), tile=ct.mma(x, y, acc, use_fast_acc=True))
