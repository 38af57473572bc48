# case: a NaN fill value for an integer tile was truncated to an undefined value
# sig: a=int32[?], b=int32[?], TILE=16
# expect: 9:26: TileValueError: cannot convert float NaN to integer
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    z = ct.full((TILE,), float("nan"), dtype=ct.int32)
    ct.store(b, index=(ct.bid(0),), tile=z)
