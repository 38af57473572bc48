# case: one index per array axis
# sig: a=float32[?, ?], b=float32[?], TILE=16
# expect: 10:22: TileTypeError: expected 2 indices (one per axis of the array), got 1
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    offs = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    t = ct.gather(a, offs)
    ct.store(b, index=(0,), tile=t)
