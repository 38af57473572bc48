# case: atomics need a scope
# sig: a=int32[?], b=int32[?], TILE=16
# expect: 10:29: TileTypeError: tile_atomic_rmw with ACQ_REL memory ordering requires a memory scope
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    offs = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    ct.atomic_xchg(b, 0, 1, memory_scope=ct.MemoryScope.NONE)
