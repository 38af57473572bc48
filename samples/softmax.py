"""Row softmax: y[i, :] = exp(x[i, :] - max(x[i, :])) / sum(exp(x[i, :] - max(x[i, :]))).

One block per row; the whole row is a single (1, TN) tile, TN a power of two at least as long
as the row. Lanes past the end of the row load as -inf, so they add exp(-inf) = 0 to the sum,
and they are never stored. The arithmetic runs in float32 whatever the input dtype.

Launch: grid = (n_rows,)
"""
import cuda.tile as ct


@ct.kernel
def softmax(x, y, TN: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TN),
                padding_mode=ct.PaddingMode.NEG_INF).astype(ct.float32)
    e = ct.exp(t - ct.max(t, axis=1, keepdims=True))
    total = ct.sum(e, axis=1, keepdims=True)
    ct.store(y, index=(row, 0), tile=(e / total).astype(y.dtype))
