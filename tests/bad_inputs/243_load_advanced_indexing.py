# case: ct.load_advanced_indexing with ct.Slice (spec tier T3) is rejected as not supported yet
# sig: a=float32[?, ?], b=float32[?, ?], TILE=16
# expect: 10:45: TileUnsupportedFeatureError: ct.Slice() is not supported yet by tile2cu
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    rows = ct.arange(TILE, dtype=ct.int32)
    t = ct.load_advanced_indexing(a, (rows, ct.Slice(0, TILE)))
    ct.store(b, index=(0, 0), tile=t)
