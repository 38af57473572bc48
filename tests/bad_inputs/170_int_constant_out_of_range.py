# case: an integer constant out of range of every integer type
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:26: TileValueError: integer constant too large
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    u = ct.full((TILE,), 10 ** 40, dtype=ct.float32)
    t = t + u
    ct.store(b, index=(bid,), tile=t)
