# case: raise statement
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 12:9: TileSyntaxError: raise
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    if bid < 0:
        raise ValueError("negative")
    ct.store(b, index=(bid,), tile=t)
