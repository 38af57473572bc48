# case: a tile past tile2cu's size limit (but one cuTile takes) is refused after the kernel type-checks, so cuTile's own error comes first (test_transpose_3d_default_axes)
# sig: x=float32[?, ?, ?], y=float32[?, ?, ?]
# expect: 10:10: TileTypeError: `axes` must be specified for tile with more than 2 dimensions
import cuda.tile as ct


@ct.kernel
def k(x, y):
    tx = ct.load(x, index=(0, 0, 0), shape=(128, 64, 32))
    ty = ct.transpose(tx)
    ct.store(y, index=(0, 0, 0), tile=ty)
