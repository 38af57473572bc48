# case: break that leaves a with body (cuTile has it; tile2cu would skip the helper's exit)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 22:13: TileUnsupportedFeatureError: break out of a with body is not supported yet by tile2cu
import contextlib
from contextlib import contextmanager

import cuda.tile as ct


@contextmanager
def region():
    yield
    print("leaving")


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    for i in range(4):
        with region():
            break
    ct.store(b, index=(bid,), tile=t)
