# case: rounding_mode on a float->int conversion
# sig: a=float32[?], b=int32[?], TILE=16
# expect: 11:28: TileTypeError: rounding_mode
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    u = t.astype(ct.int32, rounding_mode=ct.RoundingMode.RZ)
    ct.store(b, index=(bid,), tile=u)
