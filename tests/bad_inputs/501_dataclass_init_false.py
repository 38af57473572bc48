# case: a frozen dataclass with an init=False field
# sig: a=float32[?], TILE=16
# expect: 17:11: TileTypeError: Dataclasses with init=False fields are not supported
from dataclasses import dataclass, field

import cuda.tile as ct


@dataclass(frozen=True)
class Cfg:
    scale: float
    shift: float = field(default=0.0, init=False)


@ct.kernel
def k(a, TILE: ct.Constant[int]):
    cfg = Cfg(2.0)
    t = ct.load(a, index=(0,), shape=(TILE,))
    ct.store(a, index=(0,), tile=t * cfg.scale)
