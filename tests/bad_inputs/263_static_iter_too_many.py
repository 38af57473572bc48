# case: ct.static_iter unrolls at most 1000 items
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:29: TileStaticEvalError: Maximum number of iterations (1000) has been reached while unpacking the static_iter() iterable
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    for i in ct.static_iter(range(TILE * 100)):
        t = t + i
    ct.store(b, index=(bid,), tile=t)
