# case: NaN padding for an int32 array
# sig: a=int32[?], b=int32[?], TILE=16
# expect: 10:49: TileTypeError: NAN
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,), padding_mode=ct.PaddingMode.NAN)
    ct.store(b, index=(bid,), tile=t)
