# case: list comprehension
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:12: TileSyntaxError: comprehension
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    offs = [i * TILE for i in range(4)]
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
