# case: a tuple indexed by a runtime value (indices must be constant)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 12:15: TileTypeError: Tuple indices must be constant
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    s = (1.0, 2.0)
    t = t + s[bid]
    ct.store(b, index=(bid,), tile=t)
