# case: indexing a tile with an integer
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:11: TileTypeError: extract
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    v = t[0]
    ct.store(b, index=(bid,), tile=t + v)
