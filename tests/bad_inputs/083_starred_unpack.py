# case: a starred assignment target
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:8: TileSyntaxError: starred
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    p, *q = (1, 2, 3)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
