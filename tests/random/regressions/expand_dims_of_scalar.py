# Found by tests/random (seed 11, programs 7, 34 and 50), reduced by hand. ct.expand_dims of a
# runtime scalar (here a full reduction) is emitted as reshape<Layout_1>(s, smem), which has no
# overload for a scalar argument (nvcc: no instance of function template "tile2cu::reshape").
# sig: x=float32[?], y=float32[?]
# expect: ok
import cuda.tile as ct


@ct.kernel
def expand_scalar(x, y):
    bid = ct.bid(0)
    s = ct.sum(ct.load(x, index=(bid,), shape=(16,)))
    ct.store(y, index=(bid,), tile=ct.expand_dims(s, 0))
