# case: a frozen dataclass built with more positional arguments than it has fields
# sig: a=float32[?], TILE=16
# expect: 17:11: TileTypeError: Cfg(): too many positional arguments
from dataclasses import dataclass

import cuda.tile as ct


@dataclass(frozen=True)
class Cfg:
    scale: float
    shift: float = 0.0


@ct.kernel
def k(a, TILE: ct.Constant[int]):
    cfg = Cfg(2.0, 1.0, 3)
    t = ct.load(a, index=(0,), shape=(TILE,))
    ct.store(a, index=(0,), tile=t * cfg.scale + cfg.shift)
