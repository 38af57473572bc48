# case: 16-bit float atomics at system scope
# sig: a=bfloat16[?], b=bfloat16[?], TILE=16
# expect: 10:48: TileUnsupportedFeatureError: on a bfloat16 array with memory_scope=SYS is not supported yet
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    offs = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    ct.atomic_add(b, offs, ct.gather(a, offs), memory_scope=ct.MemoryScope.SYS)
