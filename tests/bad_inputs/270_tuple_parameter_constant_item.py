# case: a tuple parameter holding a constant item (a number in a tuple argument is a run-time
# scalar in cuTile; a tuple of constants only goes to a ct.Constant parameter)
# sig: t=(float32[?], 2), TILE=16
# expect: 9:7: SignatureError: signature 't=(float32[?], 2), TILE=16': tuple parameter 't' holds a constant
import cuda.tile as ct


@ct.kernel
def k(t, TILE: ct.Constant[int]):
    a, n = t
    ct.store(a, index=(0,), tile=ct.load(a, index=(0,), shape=(TILE,)) * n)
