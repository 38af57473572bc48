# case: 'in' on a string (membership only in tuples)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:9: TileTypeError: 'in' needs a tuple on its right
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    n = "a" in "abc"
    ct.store(b, index=(bid,), tile=t)
