# case: an unsigned tile index
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:20: TileTypeError: signed
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(ct.uint32(0),), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
