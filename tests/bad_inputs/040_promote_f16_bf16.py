# case: float16 and bfloat16 never mix
# sig: a=float16[?], b=bfloat16[?], TILE=16
# expect: 12:36: TileTypeError: Implicit promotion of float16 and bfloat16
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(TILE,))
    y = ct.load(b, index=(bid,), shape=(TILE,))
    ct.store(a, index=(bid,), tile=x + y)
