# case: while on a tile, not a scalar
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:11: TileTypeError: scalar
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    while t > 0.0:
        t = t - 1.0
    ct.store(b, index=(bid,), tile=t)
