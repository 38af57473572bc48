# case: a module-level enum.Enum used in a kernel (cuTile allows it; tile2cu does not yet)
# sig: a=float32[?], TILE=16
# expect: 17:8: TileUnsupportedFeatureError: class Mode is defined here: classes (frozen dataclasses, enums) are not supported yet by tile2cu
import enum

import cuda.tile as ct


class Mode(enum.Enum):
    SCALE = 0
    SHIFT = 1


@ct.kernel
def k(a, TILE: ct.Constant[int]):
    t = ct.load(a, index=(0,), shape=(TILE,))
    if Mode.SCALE == Mode.SHIFT:
        t = t * 2
    ct.store(a, index=(0,), tile=t)
