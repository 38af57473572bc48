# case: atan2 of bfloat16 and float16 tiles: no implicit promotion, in cuTile's words (test_array_atan2[bf16-f16])
# sig: x=bfloat16[?], y=float16[?], z=float32[?], TILE=16
# expect: 11:10: TileTypeError: Implicit promotion of bfloat16 and float16 is not supported
import cuda.tile as ct


@ct.kernel
def k(x, y, z, TILE: ct.Constant[int]):
    tx = ct.load(x, index=(0,), shape=(TILE,))
    ty = ct.load(y, index=(0,), shape=(TILE,))
    tz = ct.atan2(tx, ty)
    ct.store(z, index=(0,), tile=tz)
