# case: a frozen dataclass whose field has a default_factory
# sig: a=float32[?], TILE=16
# expect: 16:11: TileTypeError: Dataclasses with default_factory fields are not supported
from dataclasses import dataclass, field

import cuda.tile as ct


@dataclass(frozen=True)
class Cfg:
    sizes: tuple = field(default_factory=tuple)


@ct.kernel
def k(a, TILE: ct.Constant[int]):
    cfg = Cfg()
    t = ct.load(a, index=(0,), shape=(TILE,))
    ct.store(a, index=(0,), tile=t)
