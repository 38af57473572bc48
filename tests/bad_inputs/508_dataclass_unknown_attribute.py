# case: reading an attribute a frozen dataclass instance does not have
# sig: a=float32[?], TILE=16
# expect: 18:34: TileTypeError: 'Cfg' object has no attribute 'bias'
from dataclasses import dataclass

import cuda.tile as ct


@dataclass(frozen=True)
class Cfg:
    scale: float


@ct.kernel
def k(a, TILE: ct.Constant[int]):
    cfg = Cfg(2.0)
    t = ct.load(a, index=(0,), shape=(TILE,))
    ct.store(a, index=(0,), tile=cfg.bias * t)
