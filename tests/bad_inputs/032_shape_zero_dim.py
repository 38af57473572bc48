# case: a zero tile dimension
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:18: TileTypeError: not positive
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    z = ct.zeros((0,), dtype=ct.float32)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
