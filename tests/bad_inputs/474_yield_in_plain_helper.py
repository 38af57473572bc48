# case: yield in a helper that is no contextmanager
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 8:5: TileSyntaxError: Unsupported syntax: yield (only a @contextlib.contextmanager helper may yield)
import cuda.tile as ct


def ids(n):
    yield n


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    g = ids(bid)
    ct.store(b, index=(bid,), tile=t)
