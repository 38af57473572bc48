# case: a frozen dataclass used in a kernel (cuTile allows it; tile2cu does not yet)
# sig: a=float32[?], TILE=16
# expect: 16:11: TileUnsupportedFeatureError: class Cfg is defined here: classes (frozen dataclasses, enums) are not supported yet by tile2cu
import dataclasses

import cuda.tile as ct


@dataclasses.dataclass(frozen=True)
class Cfg:
    scale: float


@ct.kernel
def k(a, TILE: ct.Constant[int]):
    cfg = Cfg(2.0)
    t = ct.load(a, index=(0,), shape=(TILE,))
    ct.store(a, index=(0,), tile=t * cfg.scale)
