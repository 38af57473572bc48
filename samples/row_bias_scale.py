"""Scale a matrix and add a per-column bias: y[i, j] = x[i, j] * scale + bias[j].

2-D grid: bid(0) walks tiles of rows, bid(1) tiles of columns. The bias is loaded as a
(TN,) tile from a 1-D array and broadcast across the rows as a (1, TN) row vector. The
arithmetic runs in float32 (`scale` is a runtime float, i.e. a float32 scalar, so a half
precision tile times `scale` promotes to float32); the result is cast to y's dtype.

Launch: grid = (ct.cdiv(M, TM), ct.cdiv(N, TN))
"""
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def row_bias_scale(x, bias, y, scale: float, TM: ConstInt, TN: ConstInt):
    row_block = ct.bid(0)
    col_block = ct.bid(1)

    x_tile = ct.load(x, index=(row_block, col_block), shape=(TM, TN),
                     padding_mode=ct.PaddingMode.ZERO)
    bias_tile = ct.load(bias, index=(col_block,), shape=(TN,),
                        padding_mode=ct.PaddingMode.ZERO)

    result = x_tile * scale + bias_tile[None, :]
    ct.store(y, index=(row_block, col_block), tile=result.astype(y.dtype))
