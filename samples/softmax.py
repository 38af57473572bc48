"""Row softmax: y[i, :] = exp(x[i, :] - max(x[i, :])) / sum(exp(x[i, :] - max(x[i, :]))).

One block per row; the whole row is a single (1, TN) tile, TN a power of two at least as long
as the row. Lanes past the end of the row load as -inf, so they add exp(-inf) = 0 to the sum,
and they are never stored. The arithmetic runs in float32 whatever the input dtype.

`softmax` keeps cuTile's default math: exp as CUDA's expf, division correctly rounded.
`softmax_fast_math` is the same kernel with the math of Triton's `tl.exp` and `/` (and of
most hand-written softmax kernels): the hardware's approximate exp2 of x * log2(e), and the
full-range approximate division (2 ulp). It is several instructions an element cheaper.

Launch: grid = (n_rows,)
"""
import cuda.tile as ct

LOG2_E = 1.4426950408889634  # exp(x) = exp2(x * log2(e))


@ct.kernel
def softmax(x, y, TN: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TN),
                padding_mode=ct.PaddingMode.NEG_INF).astype(ct.float32)
    e = ct.exp(t - ct.max(t, axis=1, keepdims=True))
    total = ct.sum(e, axis=1, keepdims=True)
    ct.store(y, index=(row, 0), tile=(e / total).astype(y.dtype))


@ct.kernel
def softmax_fast_math(x, y, TN: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TN),
                padding_mode=ct.PaddingMode.NEG_INF).astype(ct.float32)
    e = ct.exp2((t - ct.max(t, axis=1, keepdims=True)) * LOG2_E)
    total = ct.sum(e, axis=1, keepdims=True)
    p = ct.truediv(e, total, rounding_mode=ct.RoundingMode.FULL)
    ct.store(y, index=(row, 0), tile=p.astype(y.dtype))
