# case: ct.mma_scaled exists in cuTile but is outside tile2cu's current scope
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 13:11: TileUnsupportedFeatureError: ct.mma_scaled
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    acc = ct.zeros((TILE, TILE), dtype=ct.float32)
    m = t.reshape((TILE, 1)) * t.reshape((1, TILE))
    acc = ct.mma_scaled(m, m, m, m, acc)
    ct.store(b, index=(bid,), tile=t)
