# case: gather indices must be integers
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:22: TileTypeError: index #0 must be an integer scalar or tile
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    offs = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    t = ct.gather(a, offs.astype(ct.float32))
    ct.store(b, index=(0,), tile=t)
