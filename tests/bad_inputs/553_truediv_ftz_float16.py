# case: ct.truediv(flush_to_zero=True) on float16 operands (the option is float32-only)
# sig: a=float16[?], b=float16[?], TILE=16
# expect: 11:32: TileTypeError: Flush to zero can only be used for float32
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    u = ct.truediv(t, t + 1.0, flush_to_zero=True)
    ct.store(b, index=(bid,), tile=u)
