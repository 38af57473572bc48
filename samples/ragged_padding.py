"""Padding modes on ragged edges, made observable.

x is an (M, N) matrix whose extents need not be multiples of the tile (TM, TN). Every output
is exactly as large as the padded tile grid, (ct.cdiv(M, TM) * TM, ct.cdiv(N, TN) * TN)
(xt: the transposed grid), so the lanes a load fills with padding ARE stored and can be
checked on the host:

    out_zero  ZERO-padded tile, stored as loaded            padding reads  0.0
    out_negz  NEG_ZERO-padded tile, stored as loaded        padding reads -0.0
    out_ninf  NEG_INF-padded tile, -inf replaced by -1      padding reads -1.0
    out_pinf  POS_INF-padded tile, clamped to 1000          padding reads 1000.0
    out_nan   NAN-padded tile, NaN (t != t) replaced by 7   padding reads  7.0
    xt        x^T through an order=(1, 0) load (ZERO padding), stored into the transposed grid

Launch: grid = (ct.cdiv(M, TM), ct.cdiv(N, TN))
"""
import math

import cuda.tile as ct

ConstInt = ct.Constant[int]
NEG_INF = -math.inf
CLAMP = 1000.0


@ct.kernel
def pad_probe(x, out_zero, out_negz, out_ninf, out_pinf, out_nan, xt,
              TM: ConstInt, TN: ConstInt):
    i, j = ct.bid(0), ct.bid(1)

    zero_tile = ct.load(x, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out_zero, index=(i, j), tile=zero_tile)

    negz_tile = ct.load(x, (i, j), (TM, TN), padding_mode=ct.PaddingMode.NEG_ZERO,
                        allow_tma=False)
    ct.store(out_negz, (i, j), negz_tile)

    ninf_tile = ct.load(x, (i, j), (TM, TN), padding_mode=ct.PaddingMode.NEG_INF)
    ct.store(out_ninf, (i, j), ct.where(ninf_tile == NEG_INF, -1.0, ninf_tile))

    pinf_tile = ct.load(x, (i, j), (TM, TN), padding_mode=ct.PaddingMode.POS_INF)
    ct.store(out_pinf, (i, j), ct.minimum(pinf_tile, CLAMP))

    nan_tile = ct.load(x, (i, j), (TM, TN), padding_mode=ct.PaddingMode.NAN)
    ct.store(out_nan, (i, j), ct.where(nan_tile != nan_tile, 7.0, nan_tile))

    # order=(1, 0): tile axis 0 walks array axis 1, so index/shape are given as
    # (column tile, row tile) and the loaded (TN, TM) tile is the transposed block.
    t_tile = ct.load(x, index=(j, i), shape=(TN, TM), order=(1, 0),
                     padding_mode=ct.PaddingMode.ZERO)
    ct.store(xt, index=(j, i), tile=t_tile)
