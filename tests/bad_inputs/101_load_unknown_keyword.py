# case: an unknown keyword argument to ct.load
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:49: TileTypeError: foo
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,), foo=1)
    ct.store(b, index=(bid,), tile=t)
