# case: ordering comparison of two members of an enum.Enum
# sig: a=float32[?], TILE=16
# expect: 17:8: TileTypeError: '<' not supported between instances of 'Mode' and 'Mode'
import enum

import cuda.tile as ct


class Mode(enum.Enum):
    SCALE = 0
    SHIFT = 1


@ct.kernel
def k(a, TILE: ct.Constant[int]):
    t = ct.load(a, index=(0,), shape=(TILE,))
    if Mode.SCALE < Mode.SHIFT:
        t = t * 2
    ct.store(a, index=(0,), tile=t)
