# case: an array dimension that is neither ? nor an integer
# sig: a=float32[x], b=float32[?], TILE=16
# expect-origin: --sig #1
# expect: 1:11: SignatureError: dimension
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
