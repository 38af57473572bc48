# case: the @ operator (matmul) is outside tile2cu's current scope
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 12:9: TileUnsupportedFeatureError: matrix multiply
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    m = t.reshape((TILE, 1))
    p = m @ m.reshape((1, TILE))
    ct.store(b, index=(bid,), tile=t)
