# case: scatter casts losslessly only
# sig: a=float32[?], b=bfloat16[?], TILE=16
# expect: 10:25: TileTypeError: cannot implicitly cast float32 to the array's dtype bfloat16
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    offs = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    ct.scatter(b, offs, ct.gather(a, offs))
