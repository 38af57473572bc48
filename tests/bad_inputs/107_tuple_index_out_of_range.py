# case: a.shape[1] on a rank-1 array
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:17: TileTypeError: out of range
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    n = a.shape[1]
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
