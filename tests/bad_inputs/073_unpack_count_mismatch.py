# case: two names unpacked from the shape of a 1-D array
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:5: TileValueError: unpack
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    n, m = a.shape
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
