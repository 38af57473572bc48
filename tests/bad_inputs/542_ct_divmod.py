# case: ct.divmod is for integers only (cuTile has no float form): a float tile is a type error
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 9:12: TileTypeError: divmod() is not implemented for floating point values
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    q, r = ct.divmod(ct.load(a, index=(0,), shape=(TILE,)), 2)
    ct.store(b, index=(0,), tile=q + r)
