# case: the signature gives no constraint for parameter b
# sig: a=float32[?], TILE=16
# expect: 8:10: SignatureError: no constraint for parameter 'b'
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
