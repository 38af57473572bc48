# case: a helper returns a tile in one branch of a run-time if and falls off its end (None) on the other path
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 8:5: TileTypeError: Type of return value depends on path taken
import cuda.tile as ct


def maybe(v, bid):
    if bid > 0:
        return v * 2.0
    v = v + 1.0


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=maybe(t, bid))
