# case: ct.ensure_constant on a run-time value
# sig: a=float32[?], b=float32[?], n=int32, TILE=16
# expect: 10:32: TileStaticAssertionError: ct.ensure_constant(): the value is not a compile-time constant (it is int32 scalar)
import cuda.tile as ct


@ct.kernel
def k(a, b, n: int, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    scale = ct.ensure_constant(n)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t * scale)
