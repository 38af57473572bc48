# case: & on float tiles
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:9: TileTypeError: Bitwise
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    u = t & t
    ct.store(b, index=(bid,), tile=u)
