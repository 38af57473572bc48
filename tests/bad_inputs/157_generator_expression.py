# case: tuple(... for ...): cuTile has it over static_iter, tile2cu does not yet
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:14: TileUnsupportedFeatureError: generator expression
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    s = tuple(i for i in range(3))
    ct.store(b, index=(bid,), tile=t)
