# case: ct.store_advanced_indexing (spec c.2.4, T3) is rejected as not supported yet
# (indices without ct.Slice: 243 shows that ct.Slice() itself is rejected first)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 12:5: TileUnsupportedFeatureError: ct.store_advanced_indexing() is not supported yet by tile2cu
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    rows = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    t = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    ct.store_advanced_indexing(b, (rows,), t)
