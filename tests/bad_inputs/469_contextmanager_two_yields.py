# case: contextmanager helper with two yields
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 13:5: TileTypeError: Generator-based context manager must have one `yield` statement (another `yield` found on line 12)
import contextlib
from contextlib import contextmanager

import cuda.tile as ct


@contextmanager
def region():
    yield
    yield


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    with region():
        t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
