# case: a float tile index
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:20: TileTypeError: integer
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(0.5,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
