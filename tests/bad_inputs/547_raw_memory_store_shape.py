# case: RawArrayMemory.store_offset (Array.get_raw_memory, spec c.2.5): the value broadcasts to the offset's shape, never the offset to the value's
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:52: TileTypeError: Value shape (16,) is not broadcastable to the index shape (1,)
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    mem = b.get_raw_memory()
    t = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    mem.store_offset(ct.arange(1, dtype=ct.int32), t)
