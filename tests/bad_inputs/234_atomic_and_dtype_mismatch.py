# case: bitwise atomics need the exact dtype
# sig: a=int64[?], b=int32[?], TILE=16
# expect: 10:28: TileTypeError: Bitwise atomic read-modify-write operations require the update dtype (int64) to exactly match the target dtype (int32)
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    offs = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    ct.atomic_and(b, offs, ct.gather(a, offs))
