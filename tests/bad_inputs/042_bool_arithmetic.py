# case: + on two bool tiles
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 12:9: TileTypeError: bool
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    m = t > 0.0
    n = m + m
    ct.store(b, index=(bid,), tile=ct.where(n > 0, t, 0.0))
