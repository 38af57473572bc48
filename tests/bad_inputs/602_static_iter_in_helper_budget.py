# case: the unrolled loop sits in a helper: the error names the loop and the call that led there
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 8:14: TileUnsupportedFeatureError: unrolling this ct.static_iter() loop needs more than 100000 IR operations
import cuda.tile as ct


def bump(x):
    for i in ct.static_iter(range(1000)):
        for j in ct.static_iter(range(1000)):
            x = x * 1.5
    return x


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    x = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    ct.store(b, index=(ct.bid(0),), tile=bump(x))
