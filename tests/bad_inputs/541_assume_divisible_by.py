# case: ct.assume_divisible_by (a divisibility hint, spec T3) is rejected as not supported yet
# sig: a=float32[?], b=float32[?], n=int32, TILE=16
# expect: 9:9: TileUnsupportedFeatureError: ct.assume_divisible_by() is not supported yet by tile2cu
import cuda.tile as ct


@ct.kernel
def k(a, b, n: int, TILE: ct.Constant[int]):
    m = ct.assume_divisible_by(n, 16)
    t = ct.load(a, index=(m // TILE,), shape=(TILE,))
    ct.store(b, index=(ct.bid(0),), tile=t)
