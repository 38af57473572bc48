# case: a Python builtin outside the tile subset (cuTile: UnsupportedCallError)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:9: UnsupportedCallError: sorted() is not supported in device code
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    n = sorted((3, 1))
    t = t + n[0]
    ct.store(b, index=(bid,), tile=t)
