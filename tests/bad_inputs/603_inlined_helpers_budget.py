# case: helpers that call helpers twice inline 8192 copies of a 30-operation body: more IR than
# the budget allows, reported where it runs out (no static_iter involved)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:5: TileUnsupportedFeatureError: lowering this file needs more than 100000 IR operations
import cuda.tile as ct


def leaf(x):
    x = ct.exp(x) * 0.5 + 0.25; x = ct.exp(x) * 0.5 + 0.25; x = ct.exp(x) * 0.5 + 0.25
    x = ct.exp(x) * 0.5 + 0.25; x = ct.exp(x) * 0.5 + 0.25; x = ct.exp(x) * 0.5 + 0.25
    return x

def h11(x): return leaf(x) + leaf(x)
def h10(x): return h11(x) + h11(x)
def h9(x): return h10(x) + h10(x)
def h8(x): return h9(x) + h9(x)
def h7(x): return h8(x) + h8(x)
def h6(x): return h7(x) + h7(x)
def h5(x): return h6(x) + h6(x)
def h4(x): return h5(x) + h5(x)
def h3(x): return h4(x) + h4(x)
def h2(x): return h3(x) + h3(x)
def h1(x): return h2(x) + h2(x)
def h0(x): return h1(x) + h1(x)


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    x = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    ct.store(b, index=(ct.bid(0),), tile=h0(x))
