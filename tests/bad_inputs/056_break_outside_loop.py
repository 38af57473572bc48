# case: break outside any loop
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 12:9: TileSyntaxError: break
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    if bid > 0:
        break
    ct.store(b, index=(bid,), tile=t)
