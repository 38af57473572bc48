# case: contextmanager helper that never yields
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 18:10: TileTypeError: Expected a generator function, but no reachable `yield` statement has been found
import contextlib
from contextlib import contextmanager

import cuda.tile as ct


@contextmanager
def region():
    pass


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    with region():
        t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
