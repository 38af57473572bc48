# case: shift by a float
# sig: a=int32[?], b=int32[?], TILE=16
# expect: 11:36: TileTypeError: shift
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=x << 1.5)
