# case: float() of a run-time scalar (use astype on tiles)
# sig: a=float32[?], b=float32[?], n=int32, TILE=16
# expect: 9:15: TileTypeError: float() accepts compile-time constants only; use astype() on tiles
import cuda.tile as ct


@ct.kernel
def k(a, b, n: int, TILE: ct.Constant[int]):
    s = float(n)
    t = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    ct.store(b, index=(ct.bid(0),), tile=t * s)
