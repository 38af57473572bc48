# case: a variable holds instances of two different dataclasses on the paths of a run-time if
# sig: a=float32[?], TILE=16
# expect: 26:40: TileTypeError: Type of `op` depends on path taken: Shift[factor: float32 scalar] vs Scale[factor: float constant 2]
from dataclasses import dataclass

import cuda.tile as ct


@dataclass(frozen=True)
class Scale:
    factor: float


@dataclass(frozen=True)
class Shift:
    factor: float


@ct.kernel
def k(a, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    op = Scale(2.0)
    if bid > 0:
        op = Shift(ct.sum(t))
    ct.store(a, index=(bid,), tile=t * op.factor)
