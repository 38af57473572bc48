# case: arange size 10 is not a power of two
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:19: TileTypeError: Result tile shape must be power of 2
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    r = ct.arange(10, dtype=ct.float32)
    ct.store(b, index=(bid,), tile=r)
