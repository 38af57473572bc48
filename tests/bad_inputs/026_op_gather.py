# case: ct.gather exists in cuTile but is outside tile2cu's current scope
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 12:9: TileUnsupportedFeatureError: ct.gather
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    offs = ct.arange(TILE, dtype=ct.int32)
    g = ct.gather(a, offs)
    t = t + g
    ct.store(b, index=(bid,), tile=t)
