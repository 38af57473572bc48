# case: ct.static_eval: cuTile has it, tile2cu does not yet
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:9: TileUnsupportedFeatureError: ct.static_eval
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    n = ct.static_eval(TILE * 2)
    ct.store(b, index=(bid,), tile=t)
