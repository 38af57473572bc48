# case: a static array dimension of 10**20 wrapped silently
# sig: a=float32[99999999999999999999], b=float32[?], TILE=16
# expect-origin: --sig #1
# expect: 1:11: SignatureError: integer out of range of int64
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    x = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    ct.store(b, index=(ct.bid(0),), tile=x)
