# case: a tuple parameter holding an array and a scalar (cuTile >= 1.5 allows it; tile2cu not yet)
# sig: t=(float32[?], int32), TILE=16
# expect-origin: --sig #1
# expect: 1:4: SignatureError: tuple parameters of arrays or scalars are not supported yet by tile2cu
import cuda.tile as ct


@ct.kernel
def k(t, TILE: ct.Constant[int]):
    a, n = t
    ct.store(a, index=(0,), tile=ct.load(a, index=(0,), shape=(TILE,)) * n)
