# sig: a=float32[?], b=float32[?], TILE=16
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(TILE,))
    z = ct.full((1 << 21,), 1.0, dtype=ct.float32)
    x = x + ct.sum(z)
    ct.store(b, index=(bid,), tile=x)
