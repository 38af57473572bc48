# case: for over ct.static_iter: cuTile has it, tile2cu does not yet
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:14: TileUnsupportedFeatureError: ct.static_iter
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    for i in ct.static_iter(range(3)):
        t = t + i
    ct.store(b, index=(bid,), tile=t)
