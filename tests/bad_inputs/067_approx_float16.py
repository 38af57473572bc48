# case: rounding_mode=APPROX on a float16 operand
# sig: a=float16[?], b=float16[?], TILE=16
# expect: 11:19: TileTypeError: APPROX
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    u = ct.exp(t, rounding_mode=ct.RoundingMode.APPROX)
    ct.store(b, index=(bid,), tile=u)
