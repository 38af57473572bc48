# case: ct.floor on an integer tile
# sig: a=int32[?], b=int32[?], TILE=16
# expect: 11:45: TileTypeError: float
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=ct.floor(t))
