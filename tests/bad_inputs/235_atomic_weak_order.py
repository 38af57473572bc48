# case: atomics cannot be WEAK
# sig: a=int32[?], b=int32[?], TILE=16
# expect: 10:31: TileTypeError: Invalid memory order for tile_atomic_rmw. Got MemoryOrder.WEAK
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    offs = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    ct.atomic_add(b, offs, 1, memory_order=ct.MemoryOrder.WEAK)
