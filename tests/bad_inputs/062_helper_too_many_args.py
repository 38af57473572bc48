# case: a helper called with more arguments than it takes
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 15:36: TileTypeError: argument
import cuda.tile as ct


def twice(v):
    return v * 2.0


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=twice(t, t))
