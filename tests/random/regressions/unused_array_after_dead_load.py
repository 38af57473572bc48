# Found by tests/random (seed 11: 9 of 60 programs), reduced by hand. A load whose value is
# never used is removed, but the kernel still declares the array view it read, which nvcc
# warns about (#177-D), an error under -Werror all-warnings as tests/compile builds samples.
# sig: x=float32[?], z=float32[?], y=float32[?]
# expect: ok
import cuda.tile as ct


@ct.kernel
def dead_load(x, z, y):
    bid = ct.bid(0)
    unused = ct.load(z, index=(bid,), shape=(16,))
    ct.store(y, index=(bid,), tile=ct.load(x, index=(bid,), shape=(16,)))
