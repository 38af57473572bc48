# case: break inside a ct.static_iter loop (the loop is unrolled at compile time)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 13:13: TileSyntaxError: Break in a for loop with static_iter() is not supported
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    for s in ct.static_iter((1.0, 2.0)):
        if s > 1.5:
            break
        t = t * s
    ct.store(b, index=(bid,), tile=t)
