# case: nested def in a kernel: cuTile has it, tile2cu does not yet
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 12:5: TileUnsupportedFeatureError: nested
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))

    def twice(v):
        return v * 2.0

    ct.store(b, index=(bid,), tile=twice(t))
