# Found by the GPU oracle (seed 20261128, program 2335), reduced by hand. argmax over a row of NaNs
# (0 / 0 in block 0) gave 2147483647, the combiner's identity index, where cuTile ignores NaNs and
# answers the row's first index, 0. Checked on the host by tests/runtime/argmax_nan_test.cu; the
# `# extents:` header makes run_gpu_oracle.py replay it on the GPU against the reference.
# sig: y=int32[?], z=int32[?]
# extents: y=g2 z=g2
# expect: ok
import cuda.tile as ct


@ct.kernel
def argmax_of_nan_row(y, z):
    bid = ct.bid(0)
    t = ct.zeros((2, 2), dtype=ct.float16) / bid
    g = bid * 2 + ct.arange(2, dtype=ct.int32)
    ct.scatter(y, g, ct.argmax(t, axis=-1))
    ct.scatter(z, g, ct.argmin(t, axis=1))
