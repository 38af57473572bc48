# case: Array.get_raw_memory (undocumented pointer-offset access, spec c.2.5, T3) is rejected as not supported yet
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 9:11: TileUnsupportedFeatureError: Array.get_raw_memory is not supported yet by tile2cu
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    mem = a.get_raw_memory()
    offs = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    t = mem.load_offset(offs)
    ct.store(b, index=(ct.bid(0),), tile=t)
