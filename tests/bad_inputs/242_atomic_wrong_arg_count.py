# case: atomic_cas takes expected and desired
# sig: a=int32[?], b=int32[?], TILE=16
# expect: 10:5: TileTypeError: atomic_cas() missing required argument 'desired'
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    offs = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    ct.atomic_cas(b, offs, 0)
