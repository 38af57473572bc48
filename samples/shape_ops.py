"""The layout and scan operations one by one, each checked against torch on the GPU.

permute_3d     y[c, i, b] = x[i, b, c]: a (TA, B, C) tile permuted to (C, TA, B)
scan_variants  per (TM, TN) tile: reverse cumsum along rows, cumprod down columns, and a running
               maximum along rows with ct.scan and a combiner written here
bytes_views    the bytes of a float32 tile (pack_to_bytes), its bits as int32 (bitcast), and a
               uint8 tile read back as int16 (unpack_from_bytes)
patch          a tile with its (0, 1) quarter replaced by another tile and one element set (insert)
rank5_permute  a (TA, 8, 32) tile seen as (TA, 2, 4, 4, 8), permuted (0, 3, 1, 4, 2), stored flat again
scratch_transpose  y = x + x^T per (T, T) block, the transpose read back from a scratch array
               this block has just written (cuTile keeps one array's accesses in program order)
"""
import cuda.tile as ct


@ct.kernel
def permute_3d(x, y, TA: ct.Constant[int], B: ct.Constant[int], C: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, index=(i, 0, 0), shape=(TA, B, C))
    ct.store(y, index=(0, i, 0), tile=ct.permute(t, (2, 0, 1)))


@ct.function
def running_max(a, b):
    return ct.maximum(a, b)


@ct.kernel
def scan_variants(x, rev, prod, run_max, TM: ct.Constant[int], TN: ct.Constant[int]):
    i = ct.bid(0)
    j = ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
    ct.store(rev, index=(i, j), tile=ct.cumsum(t, axis=1, reverse=True))
    ct.store(prod, index=(i, j), tile=ct.cumprod(t, axis=0))
    lowest = float("-inf") if x.dtype == ct.float32 else -2147483648
    ct.store(run_max, index=(i, j), tile=ct.scan(t, 1, running_max, lowest))


@ct.kernel
def bytes_views(x, raw, bits, packed, halves, TILE: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, index=(i,), shape=(TILE,))
    ct.store(raw, index=(i,), tile=ct.pack_to_bytes(t))
    ct.store(bits, index=(i,), tile=ct.bitcast(t, ct.int32))
    p = ct.load(packed, index=(i,), shape=(2 * TILE,))
    ct.store(halves, index=(i,), tile=ct.unpack_from_bytes(p, ct.int16))


@ct.kernel
def patch(x, y, TM: ct.Constant[int], TN: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, index=(i, 0), shape=(TM, TN))
    quarter = ct.full((TM // 2, TN // 2), -1.0, dtype=x.dtype)
    t = ct.insert(t, (0, 1), quarter)
    t = t.insert((TM - 1, 0), 42.0)
    ct.store(y, index=(i, 0), tile=t)


@ct.kernel
def rank5_permute(x, y, TA: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, index=(i, 0, 0), shape=(TA, 8, 32)).reshape((TA, 2, 4, 4, 8))
    ct.store(y, index=(i, 0, 0), tile=ct.permute(t, (0, 3, 1, 4, 2)).reshape((TA, 8, 32)))


@ct.kernel
def scratch_transpose(x, scratch, y, T: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, index=(i, 0), shape=(T, T), padding_mode=ct.PaddingMode.ZERO)
    ct.store(scratch, index=(i, 0), tile=t)
    tt = ct.load(scratch, index=(0, i), shape=(T, T), order=(1, 0), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(i, 0), tile=t + tt)
