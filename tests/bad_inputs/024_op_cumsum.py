# case: ct.cumsum over a tuple of tiles exists in cuTile but not in tile2cu yet
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:19: TileUnsupportedFeatureError: ct.cumsum() over a tuple of tiles
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    s = ct.cumsum((t, t))
    t = t - s
    ct.store(b, index=(bid,), tile=t)
