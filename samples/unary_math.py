"""Unary math with rounding / flush-to-zero options, float floor-division and modulo.

    roots   sqrt(p) [rounded toward zero] + rsqrt(p) [flush to zero],   p = |x| + 0.5
    logs    log(p) / ln 2 + exp2(x / 2) [ftz] - exp(-p) [approximate]
    rounds  floor(4x) + ceil(-2x) + x // 0.5 + x % 0.75
            + max(x, -0.25) + ct.minimum(x, 0.25) + relu(x)

Computed in float32 (flush_to_zero and APPROX are float32-only options), stored in each
output's dtype.

Launch: grid = (ct.cdiv(n, TILE),)
"""
import math

import cuda.tile as ct

ConstInt = ct.Constant[int]
INV_LN2 = 1.0 / math.log(2.0)
RZ = ct.RoundingMode.RZ


@ct.kernel
def unary_math(x, roots, logs, rounds, TILE: ConstInt):
    block = ct.bid(0)
    t = ct.load(x, index=(block,), shape=(TILE,),
                padding_mode=ct.PaddingMode.ZERO).astype(ct.float32)
    p = ct.abs(t) + 0.5

    r = ct.sqrt(p, rounding_mode=RZ) + ct.rsqrt(p, flush_to_zero=True)
    ct.store(roots, index=(block,), tile=r.astype(roots.dtype))

    lg = (ct.log(p) * INV_LN2 + ct.exp2(t * 0.5, flush_to_zero=True)
         - ct.exp(-p, rounding_mode=ct.RoundingMode.APPROX))
    ct.store(logs, index=(block,), tile=lg.astype(logs.dtype))

    relu = ct.maximum(t, ct.zeros((TILE,), dtype=ct.float32))
    q = ct.floor(t * 4.0) + ct.ceil(t * -2.0) + t // 0.5 + t % 0.75
    q = q + max(t, -0.25) + ct.minimum(t, 0.25) + relu
    ct.store(rounds, index=(block,), tile=q.astype(rounds.dtype))
