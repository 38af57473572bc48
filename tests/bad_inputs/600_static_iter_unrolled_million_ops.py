# case: two nested ct.static_iter loops of 1000 items unroll a million additions (issue 28:
# 16 s, 2.9 GB and a 45 MB .cu before); refused at the outer loop once the budget is spent
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:14: TileUnsupportedFeatureError: unrolling this ct.static_iter() loop needs more than 100000 IR operations
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    x = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    for i in ct.static_iter(range(1000)):
        for j in ct.static_iter(range(1000)):
            x = x + 1.0
    ct.store(b, index=(ct.bid(0),), tile=x)
