# case: a scan combiner must keep the dtype
# sig: a=int32[?, ?], b=int32[?, ?], TILE=16
# expect: 15:23: TileTypeError: must return int32, got float32
import cuda.tile as ct


def ratio(x, y):
    return x / y


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid, 0), shape=(TILE, TILE))
    s = ct.scan(t, 1, ratio, 1)
    ct.store(b, index=(bid, 0), tile=s)
