# case: cumsum takes the IEEE rounding modes only (RN, RZ, RM, RP), not APPROX
# sig: a=float32[?, ?], b=float32[?, ?], TILE=16
# expect: 11:30: TileTypeError: Rounding mode APPROX is not supported for cumsum
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid, 0), shape=(TILE, TILE))
    s = ct.cumsum(t, axis=1, rounding_mode=ct.RoundingMode.APPROX)
    ct.store(b, index=(bid, 0), tile=s)
