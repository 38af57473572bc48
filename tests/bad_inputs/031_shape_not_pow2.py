# case: tile dimension 24 is not a power of two
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:34: TileTypeError: power of two
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(24,))
    ct.store(b, index=(bid,), tile=t)
