# case: an error inside an inlined helper points into the helper
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 9:12: TileTypeError: not broadcastable
import cuda.tile as ct


def add_bias(v, n):
    bias = ct.zeros((n,), dtype=ct.float32)
    return v + bias


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=add_bias(t, 32))
