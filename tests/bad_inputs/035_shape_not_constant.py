# case: a runtime value used as a tile dimension
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:34: TileTypeError: constant
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    n = a.shape[0]
    t = ct.load(a, index=(bid,), shape=(n,))
    ct.store(b, index=(bid,), tile=t)
