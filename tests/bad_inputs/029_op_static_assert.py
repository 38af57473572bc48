# case: ct.static_assert exists in cuTile but is outside tile2cu's current scope
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:5: TileUnsupportedFeatureError: ct.static_assert
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.static_assert(TILE > 0)
    ct.store(b, index=(bid,), tile=t)
