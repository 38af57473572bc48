# case: atomic_max has no float form
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:19: TileTypeError: Unsupported array dtype: float32 (atomic_max() supports
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    offs = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    ct.atomic_max(b, offs, ct.gather(a, offs))
