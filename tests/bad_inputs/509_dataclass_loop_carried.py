# case: a frozen dataclass instance rebound inside a loop (cuTile carries it; tile2cu does not yet)
# sig: a=float32[?], TILE=16
# expect: 20:38: TileUnsupportedFeatureError: loop-carried dataclasses are not supported yet by tile2cu
from dataclasses import dataclass

import cuda.tile as ct


@dataclass(frozen=True)
class Acc:
    total: float


@ct.kernel
def k(a, TILE: ct.Constant[int]):
    t = ct.load(a, index=(0,), shape=(TILE,))
    acc = Acc(ct.sum(t))
    for i in range(4):
        acc = Acc(acc.total * 0.5)
    ct.store(a, index=(0,), tile=t * acc.total)
