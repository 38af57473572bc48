# case: return in a contextmanager helper
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 13:5: TileSyntaxError: Returning from a generator-based context manager is not supported
import contextlib
from contextlib import contextmanager

import cuda.tile as ct


@contextmanager
def region():
    yield
    return


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    with region():
        t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
