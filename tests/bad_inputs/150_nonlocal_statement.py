# case: nonlocal statement (a.5: global/nonlocal are outside the subset)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:5: TileSyntaxError: nonlocal
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    nonlocal t
    ct.store(b, index=(bid,), tile=t)
