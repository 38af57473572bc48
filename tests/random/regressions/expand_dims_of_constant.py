# Found by tests/random (seed 78, program 1378), reduced by hand; real cuTile accepts it. The
# extent of a static array dim is a compile-time constant, and ct.expand_dims of a Python
# number is refused ("expand_dims() expects a tile"), where cuTile takes it as a 0-d tile.
# sig: x=int32[19], y=int32[?]
# expect: ok
import cuda.tile as ct


@ct.kernel
def expand_const(x, y):
    n = x.shape[0]
    ct.store(y, index=(0,), tile=ct.expand_dims(-n, 0))
