# case: the same keyword argument twice
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:34: TileSyntaxError: repeated
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
