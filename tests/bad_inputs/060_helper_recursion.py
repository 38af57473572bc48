# case: a helper that calls itself without end
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 8:12: TileRecursionError: recursion
import cuda.tile as ct


def spin(v):
    return spin(v)


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=spin(t))
