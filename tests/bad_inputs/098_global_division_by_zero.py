# case: a module-level constant that divides by zero
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 13:40: TileValueError: division by zero
import cuda.tile as ct

BLOCKS = 1 // 0


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t * BLOCKS)
