# case: a reduction axis named twice
# sig: a=float32[?, ?], b=float32[?], TILE=16
# expect: 11:19: TileTypeError: Repeated reduction axis
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid, 0), shape=(TILE, TILE))
    s = ct.sum(t, axis=(1, -1))
    ct.store(b, index=(bid,), tile=s)
