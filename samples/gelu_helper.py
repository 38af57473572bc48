"""Tanh-approximated GELU through a helper function, with a compile-time dtype branch.

    gelu(v) = 0.5 * v * (1 + tanh(sqrt(2 / pi) * (v + 0.044715 * v^3)))

Full-precision inputs (float32, float64) are computed in their own dtype; half-precision
inputs are widened to float32 first. The branch depends only on x.dtype, so each
specialisation compiles exactly one side of it.

Launch: grid = (ct.cdiv(n, TILE),)
"""
import math

import cuda.tile as ct

SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
GELU_CUBIC = 0.044715
ZERO_PAD = ct.PaddingMode.ZERO


# Called from the kernel and inlined there; works for any float tile.
def gelu_tanh(v):
    inner = SQRT_2_OVER_PI * (v + GELU_CUBIC * v * v * v)
    return 0.5 * v * (1.0 + ct.tanh(inner))


@ct.kernel
def gelu(x, y, TILE: ct.Constant[int]):
    block = ct.bid(0)
    x_tile = ct.load(x, index=(block,), shape=(TILE,), padding_mode=ZERO_PAD)

    if x.dtype == ct.float32:
        compute = ct.float32
    elif x.dtype == ct.float64:
        compute = ct.float64
    else:
        compute = ct.float32  # float16 / bfloat16: widen

    v = x_tile if x.dtype == compute else x_tile.astype(compute)
    ct.store(y, index=(block,), tile=gelu_tanh(v).astype(y.dtype))
