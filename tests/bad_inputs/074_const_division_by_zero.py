# case: constant integer division by zero
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:14: TileValueError: division by zero
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    blocks = TILE // 0
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
