# case: 'is' against something other than None
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:8: TileTypeError: only supported against None
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    if TILE is 16:
        t = t + 1.0
    ct.store(b, index=(bid,), tile=t)
