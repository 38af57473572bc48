# case: Array.tiled_view (tiled views, spec c.2.5, T3) is rejected as not supported yet
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 9:12: TileUnsupportedFeatureError: Array.tiled_view is not supported yet by tile2cu
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    view = a.tiled_view((TILE,), padding_mode=ct.PaddingMode.ZERO)
    t = view.load((ct.bid(0),))
    ct.store(b, index=(ct.bid(0),), tile=t)
