# case: ct.ensure_constant: cuTile has it, tile2cu does not yet
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:9: TileUnsupportedFeatureError: ct.ensure_constant
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    n = ct.ensure_constant(TILE)
    ct.store(b, index=(bid,), tile=t)
