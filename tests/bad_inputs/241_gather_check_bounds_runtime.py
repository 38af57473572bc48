# case: check_bounds must be a constant
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:28: TileTypeError: Expected a boolean constant
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    offs = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    t = ct.gather(a, offs, check_bounds=ct.bid(0) > 0)
    ct.store(b, index=(0,), tile=t)
