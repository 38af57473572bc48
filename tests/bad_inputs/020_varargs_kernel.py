# case: variadic kernel parameters
# sig: a=float32[?], b=float32[?]
# expect: 8:13: TileSyntaxError: *args
import cuda.tile as ct


@ct.kernel
def k(a, b, *args):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
