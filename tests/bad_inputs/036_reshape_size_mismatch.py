# case: reshape that changes the element count
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:19: TileTypeError: reshape
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    u = t.reshape((TILE, 2))
    ct.store(b, index=(bid,), tile=u.reshape((TILE,)))
