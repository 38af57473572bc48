# sig: a=float32[?], b=float32[?], TILE=16
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(TILE,))
    été = x * 2.0
    x = été + 1.0
    Δ = ct.full((TILE,), 1.0, dtype=ct.float32)
    x = x + Δ
    ct.store(b, index=(bid,), tile=x)
