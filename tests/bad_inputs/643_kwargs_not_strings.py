# case: ** at a call with a dict whose keys are not strings
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 14:18: TileTypeError: keywords must be strings
import cuda.tile as ct


def scale(t, **kwargs):
    return t * kwargs.get("factor", 1.0)


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    t = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    t = scale(t, **{1: 2.0})
    ct.store(b, index=(ct.bid(0),), tile=t)
