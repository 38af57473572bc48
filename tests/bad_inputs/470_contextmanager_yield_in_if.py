# case: contextmanager helper whose yield is inside an if
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 19:10: TileTypeError: `yield` statement of a generator-based context manager must be placed outside of loops and conditional statements
import contextlib
from contextlib import contextmanager

import cuda.tile as ct


@contextlib.contextmanager
def region(on):
    if on:
        yield


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    with region(True):
        t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
