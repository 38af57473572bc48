# case: set comprehension
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:9: TileSyntaxError: set comprehension
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    s = {i for i in range(3)}
    ct.store(b, index=(bid,), tile=t)
