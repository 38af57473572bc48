"""Statistics of (TM, TN) blocks of a matrix: every reduction flavour in one kernel.

Block b covers rows [b*TM, (b+1)*TM) and the first TN columns (zero padded):
  total[b]          sum of the whole block (a scalar)
  top1[rows]        per-row argmax (the first index on ties), as a (TM, 1) column
  col_min[b, :]     per-column minimum over the block's rows, keepdims
  row_max[rows]     per-row maximum, as a 1-D tile
  col_low[b, :]     per-column argmin over the block's rows (the first index on ties)
  col_prod[b, :]    per-column product over the block's rows (int32 wraps)

Launch: grid = (ct.cdiv(n_rows, TM),)
"""
import cuda.tile as ct


@ct.kernel
def row_stats(x, total, top1, col_min, row_max, col_low, col_prod, TM: ct.Constant[int], TN: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b, 0), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
    ct.store(total, index=(b,), tile=ct.sum(t))
    ct.store(top1, index=(b, 0), tile=ct.argmax(t, axis=1).reshape((TM, 1)))
    ct.store(col_min, index=(b, 0), tile=ct.min(t, axis=0, keepdims=True))
    ct.store(row_max, index=(b,), tile=ct.max(t, axis=-1))
    ct.store(col_low, index=(b, 0), tile=ct.argmin(t, axis=0, keepdims=True))
    ct.store(col_prod, index=(b, 0), tile=ct.prod(t, axis=0, keepdims=True))
