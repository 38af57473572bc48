# case: item assignment into a shape tuple
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 12:5: TileTypeError: uple
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    s = t.shape
    s[0] = 1
    ct.store(b, index=(bid,), tile=t)
