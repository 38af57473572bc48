# case: order='A'
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:49: TileTypeError: Expected 'C' or 'F'
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,), order='A')
    ct.store(b, index=(bid,), tile=t)
