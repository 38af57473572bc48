# case: float32 tile stored into a float16 array
# sig: a=float32[?], b=float16[?], TILE=16
# expect: 11:31: TileTypeError: cannot implicitly cast float32 to float16
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
