# case: a helper returning from inside a for loop (cuTile: TileSyntaxError, test_helper_function.py::test_early_return_inside_for_loop)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 9:9: TileSyntaxError: Returning from a for loop is not supported
import cuda.tile as ct


def first(v):
    for i in range(4):
        return v
    return v * 2.0


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=first(t))
