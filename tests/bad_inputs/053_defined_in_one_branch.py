# case: a name assigned on one branch only, read after the if
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 13:36: TileTypeError: u
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    if bid > 0:
        u = t * 2.0
    ct.store(b, index=(bid,), tile=u)
