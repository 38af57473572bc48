# case: storing a rank-2 tile into a rank-1 array
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 12:31: TileTypeError: rank
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    u = t.reshape((1, TILE))
    ct.store(b, index=(bid,), tile=u)
