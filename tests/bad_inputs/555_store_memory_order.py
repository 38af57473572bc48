# case: ct.store with a memory_order other than WEAK is rejected as not supported yet
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:39: TileUnsupportedFeatureError: store with memory_order=RELEASE is not supported yet by tile2cu
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t, memory_order=ct.MemoryOrder.RELEASE,
             memory_scope=ct.MemoryScope.DEVICE)
