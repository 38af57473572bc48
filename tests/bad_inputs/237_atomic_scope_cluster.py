# case: cluster scope is not supported
# sig: a=int32[?], b=int32[?], TILE=16
# expect: 10:31: TileUnsupportedFeatureError: memory_scope=CLUSTER is not supported yet
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    offs = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    ct.atomic_cas(b, 0, 0, 1, memory_scope=ct.MemoryScope.CLUSTER)
