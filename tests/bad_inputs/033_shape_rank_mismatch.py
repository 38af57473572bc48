# case: shape length 1 for a rank-2 array
# sig: a=float32[?, ?], b=float32[?], TILE=16
# expect: 10:36: TileTypeError: Expected shape length to be 2, got 1
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid, 0), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
