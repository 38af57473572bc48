# case: ct.Slice's length must be a power of two (cuTile's test_error_non_power_of_2_slice_length)
# sig: a=float32[?, ?], b=float32[?, ?], TILE=16
# expect: 10:38: TileTypeError: ct.Slice length must be a power of two, got 12
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    rows = ct.arange(TILE, dtype=ct.int32)
    t = ct.load_advanced_indexing(a, (rows, ct.Slice(0, 12)))
    ct.store(b, index=(0, 0), tile=t)
