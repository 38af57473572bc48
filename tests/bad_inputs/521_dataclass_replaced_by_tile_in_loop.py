# case: a frozen dataclass instance carried through a loop is replaced by a tile
# sig: a=float32[?], TILE=16
# expect: 18:5: TileTypeError: Variable acc has changed its type inside a loop: Acc[total: float32 scalar] vs Tile[float32,(16,)]
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
        acc = t * acc.total
    ct.store(a, index=(0,), tile=t)
