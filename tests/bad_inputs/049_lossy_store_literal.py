# case: 0.5 stored into an int32 array
# sig: a=int32[?], b=int32[?], TILE=16
# expect: 10:31: TileTypeError: 0.5
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    ct.store(b, index=(bid,), tile=0.5)
