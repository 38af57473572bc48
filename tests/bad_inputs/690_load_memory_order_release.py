# case: a load cannot release (cuTile's test_token_order.py: TileTypeError before any support question)
# sig: x=int32[?], TILE=64
# expect: 9:43: TileTypeError: Invalid memory order for tile_load: MemoryOrder.RELEASE
import cuda.tile as ct


@ct.kernel
def k(x, TILE: ct.Constant[int]):
    ct.load(x, index=(0,), shape=(TILE,), memory_order=ct.MemoryOrder.RELEASE)
