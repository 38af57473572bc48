# sig: a=float32[?], b=float32[?], TILE=16
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(TILE,))
    s = '漢字😀'; x = x + undefined
    ct.store(b, index=(bid,), tile=x)
