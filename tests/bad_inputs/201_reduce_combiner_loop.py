# case: a reduce combiner may not contain a loop
# sig: a=float32[?, ?], b=float32[?], TILE=16
# expect: 17:25: TileSyntaxError: Loops inside reduction body are not supported
import cuda.tile as ct


def twice(x, y):
    for i in range(2):
        x = x + y
    return x


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid, 0), shape=(TILE, TILE))
    s = ct.reduce(t, 1, twice, 0.0)
    ct.store(b, index=(bid,), tile=s)
