# case: a global read, then assigned in the kernel: the name is local (Python's rule)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 13:13: TileSyntaxError: Undefined variable SCALE
import cuda.tile as ct

SCALE = 2.0


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    t = t * SCALE
    SCALE = 3.0
    ct.store(b, index=(bid,), tile=t)
