# case: a tile subscript with two '...' entries
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:43: TileTypeError: only one
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t[..., ...])
