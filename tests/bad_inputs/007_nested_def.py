# case: a decorator on a nested def (cuTile rejects it too)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 12:6: TileSyntaxError: decorators on nested functions are not supported
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))

    @ct.function
    def twice(v):
        return v * 2.0

    ct.store(b, index=(bid,), tile=twice(t))
