# case: ct.load with a memory_order other than WEAK is rejected as not supported yet
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:49: TileUnsupportedFeatureError: load with memory_order=ACQUIRE is not supported yet by tile2cu
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,), memory_order=ct.MemoryOrder.ACQUIRE,
                memory_scope=ct.MemoryScope.DEVICE)
    ct.store(b, index=(bid,), tile=t)
