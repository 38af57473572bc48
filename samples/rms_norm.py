"""RMS norm over rows: y[i, :] = x[i, :] / sqrt(mean(x[i, :]^2) + eps) * w.

One block per row, the row a single (1, TN) tile (TN >= the number of columns); zero padding
keeps the sum of squares exact, and the mean divides by the true row length x.shape[1].

Launch: grid = (n_rows,)
"""
import cuda.tile as ct

ZERO = ct.PaddingMode.ZERO


def mean_square(t, n):
    return ct.sum(t * t, axis=1, keepdims=True) / n


@ct.kernel
def rms_norm(x, w, y, eps: float, TN: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TN), padding_mode=ZERO).astype(ct.float32)
    scale = ct.rsqrt(mean_square(t, x.shape[1]) + eps)
    weight = ct.load(w, index=(0,), shape=(TN,), padding_mode=ZERO).astype(ct.float32)
    ct.store(y, index=(row, 0), tile=(t * scale * weight[None, :]).astype(y.dtype))
