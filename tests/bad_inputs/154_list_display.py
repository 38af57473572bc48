# case: a list display (tuples only in tile code)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:9: TileSyntaxError: list displays
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    s = [1, 2]
    t = t + s[0]
    ct.store(b, index=(bid,), tile=t)
