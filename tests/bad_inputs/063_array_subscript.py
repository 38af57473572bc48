# case: arrays cannot be indexed
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:9: TileTypeError: Arrays are not directly subscriptable
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    x = a[0]
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
