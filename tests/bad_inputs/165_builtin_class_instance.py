# case: constructing a Python class in tile code (cuTile: UnsupportedCallError)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:9: UnsupportedCallError: Creating instances of type "dict" is not supported in device code
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    d = dict(scale=2.0)
    ct.store(b, index=(bid,), tile=t)
