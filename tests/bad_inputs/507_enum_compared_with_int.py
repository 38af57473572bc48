# case: an enum.Enum member compared with an int (only members of an IntEnum are ints)
# sig: a=float32[?], TILE=16
# expect: 17:8: TileTypeError: Unsupported operand types for ==
import enum

import cuda.tile as ct


class Mode(enum.Enum):
    SCALE = 0
    SHIFT = 1


@ct.kernel
def k(a, TILE: ct.Constant[int]):
    t = ct.load(a, index=(0,), shape=(TILE,))
    if Mode.SHIFT == 1:
        t = t * 2
    ct.store(a, index=(0,), tile=t)
