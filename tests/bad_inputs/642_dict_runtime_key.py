# case: a dict key computed at run time
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:13: TileTypeError: Dictionary keys must be compile-time constants
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    opts = {bid: 2.0}
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
