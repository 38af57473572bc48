# case: the identity of ct.reduce must be a constant
# sig: a=float32[?, ?], b=float32[?], TILE=16
# expect: 11:37: TileTypeError: Expected a constant scalar
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid, 0), shape=(TILE, TILE))
    s = ct.reduce(t, 1, ct.maximum, ct.sum(t))
    ct.store(b, index=(bid,), tile=s)
