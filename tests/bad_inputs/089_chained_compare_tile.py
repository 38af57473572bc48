# case: a chained comparison on a tile (short-circuits like 'and')
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:9: TileTypeError: scalar
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    m = 0.0 < t < 1.0
    ct.store(b, index=(bid,), tile=ct.where(m, t, 0.0))
