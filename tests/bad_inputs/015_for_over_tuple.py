# case: for over a tuple: only range() is iterable
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:14: TileTypeError: range
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    for s in (1.0, 2.0):
        t = t * s
    ct.store(b, index=(bid,), tile=t)
