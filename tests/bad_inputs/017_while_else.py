# case: while ... else
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 12:5: TileSyntaxError: else
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    i = 0
    while i < 4:
        i += 1
    else:
        t = t * 2.0
    ct.store(b, index=(bid,), tile=t)
