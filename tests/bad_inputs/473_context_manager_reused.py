# case: one context manager entered by two with statements
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 21:10: TileTypeError: Context manager cannot be reused
import contextlib
from contextlib import contextmanager

import cuda.tile as ct


@contextmanager
def region():
    yield


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    cm = region()
    with cm:
        t = ct.load(a, index=(bid,), shape=(TILE,))
    with cm:
        ct.store(b, index=(bid,), tile=t)
