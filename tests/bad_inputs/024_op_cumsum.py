# case: ct.cumsum exists in cuTile but is outside tile2cu's current scope
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:9: TileUnsupportedFeatureError: ct.cumsum
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    s = ct.cumsum(t)
    t = t - s
    ct.store(b, index=(bid,), tile=t)
