"""Top-1 of every row: the index of the largest element (ties: the first) and its value.

The row is one tile of TN columns padded with -inf, so the padding never wins. The value comes
from ct.reduce with a combiner written here (`larger`), the index from ct.argmax.

Launch: grid = (rows,) with TN >= the row length
"""
import cuda.tile as ct


@ct.function
def larger(a, b):
    return ct.where(a > b, a, b)


@ct.kernel
def row_top1(x, index, value, TN: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TN), padding_mode=ct.PaddingMode.NEG_INF)
    ct.store(index, index=(row,), tile=ct.argmax(t, axis=1))
    ct.store(value, index=(row,), tile=ct.reduce(t, 1, larger, float("-inf")))
