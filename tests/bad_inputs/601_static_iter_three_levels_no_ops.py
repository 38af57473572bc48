# case: three nested ct.static_iter loops whose body folds to constants (no IR at all): a
# billion evaluations (issue 28: std::bad_alloc with no location); refused at the outer loop
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:14: TileUnsupportedFeatureError: unrolling this ct.static_iter() loop needs more than 4000000 statements and expressions evaluated
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    n = 0
    for i in ct.static_iter(range(1000)):
        for j in ct.static_iter(range(1000)):
            for m in ct.static_iter(range(1000)):
                n = i + j + m
    ct.store(b, index=(ct.bid(0),), tile=ct.load(a, index=(ct.bid(0),), shape=(TILE,)) + n)
