# case: ct.bid(3): axis must be 0, 1 or 2
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 9:18: TileTypeError: axis
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(3)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
