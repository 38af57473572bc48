# sig: a=float32[9223372036854775807], b=float32[-1], TILE=16
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=x)
