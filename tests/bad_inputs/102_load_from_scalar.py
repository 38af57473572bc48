# case: ct.load from a scalar parameter
# sig: a=float32[?], b=float32[?], n=int32, TILE=16
# expect: 10:17: TileTypeError: Expected an array
import cuda.tile as ct


@ct.kernel
def k(a, b, n, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(n, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
