# case: a float constant (TILE=16.0) used as a tile dimension
# sig: a=float32[?], b=float32[?], TILE=16.0
# expect: 10:34: TileTypeError: float
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
