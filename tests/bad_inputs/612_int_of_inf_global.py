# case: int(float('inf')) at module level; Python raises OverflowError, reported where the
# kernel reads the global
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 13:46: TileValueError: global 'N' is not a compile-time constant: cannot convert float infinity to integer
import cuda.tile as ct

N = int(float("inf"))


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    x = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    ct.store(b, index=(ct.bid(0),), tile=x + N)
