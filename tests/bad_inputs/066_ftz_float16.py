# case: flush_to_zero on a float16 operand
# sig: a=float16[?], b=float16[?], TILE=16
# expect: 11:20: TileTypeError: Flush to zero can only be used for float32
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    u = ct.exp2(t, flush_to_zero=True)
    ct.store(b, index=(bid,), tile=u)
