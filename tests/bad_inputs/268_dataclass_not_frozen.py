# case: a dataclass that is not frozen, built in a kernel (cuTile supports frozen dataclasses only)
# sig: a=float32[?], TILE=16
# expect: 16:11: TileTypeError: Only frozen dataclasses are supported
import dataclasses

import cuda.tile as ct


@dataclasses.dataclass
class Cfg:
    scale: float


@ct.kernel
def k(a, TILE: ct.Constant[int]):
    cfg = Cfg(2.0)
    t = ct.load(a, index=(0,), shape=(TILE,))
    ct.store(a, index=(0,), tile=t * cfg.scale)
