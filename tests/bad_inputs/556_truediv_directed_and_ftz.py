# case: ct.truediv with a directed rounding mode and flush_to_zero=True together (div.rz.ftz) is not supported yet
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:66: TileUnsupportedFeatureError: flush_to_zero on truediv() together with a rounding mode is not supported yet by tile2cu
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    u = ct.truediv(t, t + 1.0, rounding_mode=ct.RoundingMode.RZ, flush_to_zero=True)
    ct.store(b, index=(bid,), tile=u)
