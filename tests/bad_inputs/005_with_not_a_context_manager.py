# case: with over a helper that is not a @contextlib.contextmanager generator
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 17:10: TileTypeError: Object of type int constant 1 cannot be used as a context manager
import contextlib
from contextlib import contextmanager

import cuda.tile as ct


def region():
    return 1


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    with region():
        t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
