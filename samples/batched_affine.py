"""Rank-3 loads with broadcasting from lower-rank tiles:

    y[b, m, n] = x[b, m, n] * gamma[n] + beta[b, m]

3-D grid: bid(0) = batch, bid(1) = tile of rows, bid(2) = tile of columns. gamma is a (TN,)
tile widened to (1, TN) and broadcast implicitly against the (1, TM, TN) x tile (missing
leading dims count as 1); beta is a (1, TM) tile turned into a column with [:, :, None].
Computed in float32, stored in y's dtype.

Launch: grid = (B, ct.cdiv(M, TM), ct.cdiv(N, TN))
"""
import cuda.tile as ct

ConstInt = ct.Constant[int]
PAD = ct.PaddingMode.ZERO


def to_f32(t):
    return t.astype(ct.float32)


@ct.kernel
def batched_affine(x, gamma, beta, y, TM: ConstInt, TN: ConstInt):
    batch = ct.bid(0)
    row_block = ct.bid(1)
    col_block = ct.bid(2)

    x_tile = ct.load(x, index=(batch, row_block, col_block), shape=(1, TM, TN),
                     padding_mode=PAD, latency=3)
    gamma_row = to_f32(ct.load(gamma, index=(col_block,), shape=(TN,), padding_mode=PAD))[None, :]
    beta_col = to_f32(ct.load(beta, index=(batch, row_block), shape=(1, TM), padding_mode=PAD))[:, :, None]

    result = to_f32(x_tile) * gamma_row + beta_col
    ct.store(y, index=(batch, row_block, col_block), tile=result.astype(y.dtype))
