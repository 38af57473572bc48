# case: ct.truediv(rounding_mode=APPROX) on float16 operands (APPROX and FULL are float32-only)
# sig: a=float16[?], b=float16[?], TILE=16
# expect: 11:32: TileTypeError: Rounding modes FULL and APPROX can only be used for float32
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    u = ct.truediv(t, t + 1.0, rounding_mode=ct.RoundingMode.APPROX)
    ct.store(b, index=(bid,), tile=u)
