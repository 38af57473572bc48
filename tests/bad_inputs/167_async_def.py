# case: an async def inside a kernel
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:5: TileSyntaxError: async function
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    async def h(x):
        return x
    ct.store(b, index=(bid,), tile=t)
