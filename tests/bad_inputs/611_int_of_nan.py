# case: int(float('nan')) folded to -1.7e38; Python raises ValueError
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 9:9: TileValueError: cannot convert float NaN to integer
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    n = int(float("nan"))
    x = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    ct.store(b, index=(ct.bid(0),), tile=x + n)
