# case: a helper with a **kwargs parameter is rejected as not supported yet
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 7:15: TileUnsupportedFeatureError: **kwargs in helpers is not supported yet by tile2cu
import cuda.tile as ct


def scaled(t, **options):
    return t * 2.0


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    t = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    ct.store(b, index=(ct.bid(0),), tile=scaled(t, bias=1.0))
