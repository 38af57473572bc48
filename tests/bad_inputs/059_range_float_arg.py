# case: float range bound
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:20: TileTypeError: integer
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    for i in range(2.5):
        t = t + 1.0
    ct.store(b, index=(bid,), tile=t)
