# case: a lambda called with more arguments than it takes
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 12:36: TileTypeError: <lambda>() takes 1 positional arguments but 2 were given
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    twice = lambda v: v * 2.0
    ct.store(b, index=(bid,), tile=twice(t, t))
