# case: signed and unsigned integers never mix
# sig: a=int32[?], b=uint32[?], TILE=16
# expect: 12:36: TileTypeError: Implicit promotion of int32 and uint32
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(TILE,))
    y = ct.load(b, index=(bid,), shape=(TILE,))
    ct.store(a, index=(bid,), tile=x + y)
