# case: async for in a kernel
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:5: TileSyntaxError: async for
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    async for i in t:
        pass
    ct.store(b, index=(bid,), tile=t)
