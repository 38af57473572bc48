# case: helpers that each call the next twice: 2^18 inlined calls (grows exponentially)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 56:21: TileRecursionError: more than 20000 helper calls inlined
import cuda.tile as ct


def h0(x):
    return h1(x) + h1(x)

def h1(x):
    return h2(x) + h2(x)

def h2(x):
    return h3(x) + h3(x)

def h3(x):
    return h4(x) + h4(x)

def h4(x):
    return h5(x) + h5(x)

def h5(x):
    return h6(x) + h6(x)

def h6(x):
    return h7(x) + h7(x)

def h7(x):
    return h8(x) + h8(x)

def h8(x):
    return h9(x) + h9(x)

def h9(x):
    return h10(x) + h10(x)

def h10(x):
    return h11(x) + h11(x)

def h11(x):
    return h12(x) + h12(x)

def h12(x):
    return h13(x) + h13(x)

def h13(x):
    return h14(x) + h14(x)

def h14(x):
    return h15(x) + h15(x)

def h15(x):
    return h16(x) + h16(x)

def h16(x):
    return h17(x) + h17(x)

def h17(x):
    return x * 0.5


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=h0(t))
