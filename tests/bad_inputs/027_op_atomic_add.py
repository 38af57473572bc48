# case: ct.atomic_add exists in cuTile but is outside tile2cu's current scope
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:11: TileUnsupportedFeatureError: ct.atomic_add
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    old = ct.atomic_add(b, bid, 1.0)
    ct.store(b, index=(bid,), tile=t)
