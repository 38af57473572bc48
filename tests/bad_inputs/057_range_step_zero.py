# case: constant range step 0
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:26: TileTypeError: Step must be positive
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    for i in range(0, 4, 0):
        t = t + 1.0
    ct.store(b, index=(bid,), tile=t)
