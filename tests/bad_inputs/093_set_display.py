# case: set display
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:13: TileSyntaxError: set
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    sizes = {16, 32}
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
