# case: a frozen dataclass built without a field that has no default
# sig: a=float32[?], TILE=16
# expect: 17:11: TileTypeError: Cfg(): missing a required argument: 'scale'
from dataclasses import dataclass

import cuda.tile as ct


@dataclass(frozen=True)
class Cfg:
    scale: float
    shift: float = 0.0


@ct.kernel
def k(a, TILE: ct.Constant[int]):
    cfg = Cfg(shift=1.0)
    t = ct.load(a, index=(0,), shape=(TILE,))
    ct.store(a, index=(0,), tile=t * cfg.scale + cfg.shift)
