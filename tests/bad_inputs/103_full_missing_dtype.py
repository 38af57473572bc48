# case: ct.full without its dtype
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:9: TileTypeError: dtype
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    f = ct.full((TILE,), 1.0)
    ct.store(b, index=(bid,), tile=t + f)
