# case: argmax takes one axis, not a tuple
# sig: a=float32[?, ?], b=int32[?], TILE=16
# expect: 11:22: TileTypeError: single axis
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid, 0), shape=(TILE, TILE))
    s = ct.argmax(t, axis=(0, 1))
    ct.store(b, index=(bid,), tile=s)
