# case: a call whose '(' is never closed (end of file)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:13: TileSyntaxError: never closed
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t
