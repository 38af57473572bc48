# case: a dtype given to a ct.Constant parameter
# sig: a=float32[?], b=float32[?], TILE=int32
# expect: 8:13: SignatureError: TILE
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
