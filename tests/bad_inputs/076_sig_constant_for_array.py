# case: a constant given to a parameter that is not ct.Constant
# sig: a=16, b=float32[?], TILE=16
# expect: 8:7: SignatureError: not annotated ct.Constant
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
