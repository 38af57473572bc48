# case: import statement inside a kernel
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:5: TileSyntaxError: import
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    import math
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
