# case: tuple() over a generator expression (cuTile's tuple comprehension over ct.static_iter) is rejected as not supported yet
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 9:18: TileUnsupportedFeatureError: generator expression is not supported yet by tile2cu
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    shape = tuple(d for d in ct.static_iter((TILE,)))
    t = ct.load(a, index=(ct.bid(0),), shape=shape)
    ct.store(b, index=(ct.bid(0),), tile=t)
