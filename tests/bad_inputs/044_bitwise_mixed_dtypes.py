# case: & on int32 and int16 tiles
# sig: a=int32[?], b=int16[?], TILE=16
# expect: 12:36: TileTypeError: same data type
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(TILE,))
    y = ct.load(b, index=(bid,), shape=(TILE,))
    ct.store(a, index=(bid,), tile=x & y)
