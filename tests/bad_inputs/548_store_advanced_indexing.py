# case: ct.store_advanced_indexing needs an array of rank 2 or more (1-D: scatter)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:32: TileTypeError: store_advanced_indexing() needs an array of rank 2 or more
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    rows = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    t = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    ct.store_advanced_indexing(b, (rows,), t)
