# case: assigning an attribute of a frozen dataclass instance
# sig: a=float32[?], TILE=16
# expect: 17:5: TileSyntaxError: assigning an attribute is not supported in tile code
from dataclasses import dataclass

import cuda.tile as ct


@dataclass(frozen=True)
class Cfg:
    scale: float


@ct.kernel
def k(a, TILE: ct.Constant[int]):
    cfg = Cfg(2.0)
    cfg.scale = 3.0
    t = ct.load(a, index=(0,), shape=(TILE,))
    ct.store(a, index=(0,), tile=t * cfg.scale)
