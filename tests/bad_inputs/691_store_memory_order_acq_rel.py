# case: a store cannot acquire, so not ACQ_REL either (cuTile's test_token_order.py)
# sig: x=int32[?], TILE=64
# expect: 10:37: TileTypeError: Invalid memory order for tile_store: MemoryOrder.ACQ_REL
import cuda.tile as ct


@ct.kernel
def k(x, TILE: ct.Constant[int]):
    t = ct.load(x, index=(0,), shape=(TILE,))
    ct.store(x, index=(0,), tile=t, memory_order=ct.MemoryOrder.ACQ_REL)
