# case: (16,) + (32,) do not broadcast
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 12:9: TileTypeError: not broadcastable
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    z = ct.zeros((32,), dtype=ct.float32)
    u = t + z
    ct.store(b, index=(bid,), tile=u)
