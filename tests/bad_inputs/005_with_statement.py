# case: with over a contextmanager: cuTile has it, tile2cu does not yet
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 17:5: TileUnsupportedFeatureError: with
import contextlib

import cuda.tile as ct


@contextlib.contextmanager
def region():
    yield


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    with region():
        t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
