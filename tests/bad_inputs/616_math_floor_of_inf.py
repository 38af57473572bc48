# case: math.floor(float('inf')) folded to an undefined integer; Python raises OverflowError
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:9: TileValueError: cannot convert float infinity to integer
import math
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    n = math.floor(float("inf"))
    x = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    ct.store(b, index=(ct.bid(0),), tile=x + n)
