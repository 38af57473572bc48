# case: ct.astile (a nested tuple of scalars to a tile, spec T3) is rejected as not supported yet
# sig: a=float32[?], TILE=16
# expect: 9:9: TileUnsupportedFeatureError: ct.astile() is not supported yet by tile2cu
import cuda.tile as ct


@ct.kernel
def k(a, TILE: ct.Constant[int]):
    t = ct.astile((1.0, 2.0), dtype=ct.float32)
    ct.store(a, index=(ct.bid(0),), tile=t)
