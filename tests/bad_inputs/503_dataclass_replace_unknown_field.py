# case: dataclasses.replace() with a field the dataclass does not have
# sig: a=float32[?], TILE=16
# expect: 17:11: TileTypeError: Dataclass 'Cfg' has no such field 'bias'
import dataclasses

import cuda.tile as ct


@dataclasses.dataclass(frozen=True)
class Cfg:
    scale: float


@ct.kernel
def k(a, TILE: ct.Constant[int]):
    cfg = Cfg(2.0)
    cfg = dataclasses.replace(cfg, bias=1.0)
    t = ct.load(a, index=(0,), shape=(TILE,))
    ct.store(a, index=(0,), tile=t * cfg.scale)
