# case: a constant shifted by a negative count
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:9: TileValueError: negative shift count
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    n = 1 << -1
    t = t + n
    ct.store(b, index=(bid,), tile=t)
