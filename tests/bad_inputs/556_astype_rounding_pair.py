# case: astype from float32 to float16 takes RN and RZ only (cuTile's table of conversions)
# sig: a=float32[?], b=float16[?], TILE=16
# expect: 11:30: TileTypeError: rounding_mode=RoundingMode.RM is not supported for conversion from float32 to float16, supported rounding modes for this conversion are (RoundingMode.RN, RoundingMode.RZ)
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    u = t.astype(ct.float16, rounding_mode=ct.RoundingMode.RM)
    ct.store(b, index=(bid,), tile=u)
