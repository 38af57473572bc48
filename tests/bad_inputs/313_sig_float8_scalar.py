# case: a float8 scalar parameter in --sig: restricted floats are array element types only
# sig: a=float32[?, ?], b=float8_e4m3fn
# expect-origin: --sig #1
# expect: 1:20: SignatureError: float8_e4m3fn is not a scalar parameter dtype
import cuda.tile as ct


@ct.kernel
def k(a, b):
    ct.store(a, index=(0, 0), tile=ct.load(a, index=(0, 0), shape=(16, 16)))
