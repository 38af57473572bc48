# case: constructing a module-level enum.Enum from a value none of its members has
# sig: a=float32[?], TILE=16
# expect: 17:8: TileValueError: 2 is not a valid Mode
import enum

import cuda.tile as ct


class Mode(enum.Enum):
    SCALE = 0
    SHIFT = 1


@ct.kernel
def k(a, TILE: ct.Constant[int]):
    t = ct.load(a, index=(0,), shape=(TILE,))
    if Mode(2) == Mode.SHIFT:
        t = t * 2
    ct.store(a, index=(0,), tile=t)
