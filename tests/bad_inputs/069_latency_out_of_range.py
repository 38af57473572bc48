# case: latency=11 is outside 1..10
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:49: TileValueError: latency
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,), latency=11)
    ct.store(b, index=(bid,), tile=t)
