# sig: a=float32[?], b=float32[?], TILE=16
import cuda.tile as ct


def h(t):
    return (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + (t + h(t)))))))))))))))))))))))))))))))))))))))))))))))))))



@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(TILE,))
    x = h(x)
    ct.store(b, index=(bid,), tile=x)
