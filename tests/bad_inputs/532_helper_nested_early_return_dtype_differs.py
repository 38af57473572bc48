# case: a helper returns an int32 tile from a nested run-time if and a float32 tile at its end
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:9: TileTypeError: Type of return value depends on path taken
import cuda.tile as ct


def pack(v, bid):
    if bid > 1:
        w = v * 2.0
        if bid > 3:
            return ct.astype(w, ct.int32)
        v = w
    return v


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=ct.astype(pack(t, bid), ct.float32))
