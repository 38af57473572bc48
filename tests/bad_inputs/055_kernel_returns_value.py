# case: a kernel returning a value
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 12:5: TileTypeError: return
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
    return t
