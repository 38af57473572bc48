# case: a helper returns a float32 tile in one branch of a run-time if and an int32 tile after it
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 8:5: TileTypeError: Type of return value depends on path taken
import cuda.tile as ct


def pick(v, bid):
    if bid > 0:
        return v
    return ct.astype(v, ct.int32)


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=ct.astype(pick(t, bid), ct.float32))
