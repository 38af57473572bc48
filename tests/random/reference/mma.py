"""mma and @ (c.11): products summed exactly in float64 (int64 for integers), rounded once into
the accumulator's dtype; the perturbed run moves the result by the bound of a reassociated sum
in the accumulator's precision."""
import numpy as np

from . import numerics as nx
from .tile import Tile, promote

# first accumulator dtype cuTile allows for each operand dtype (what @ accumulates in)
MATMUL_ACC = {"float16": "float16", "bfloat16": "float32", "float32": "float32",
              "float64": "float64", "int8": "int32", "uint8": "int32"}


def mma(x, y, acc, *, use_fast_acc=False):
    if nx.is_float(acc.dtype):
        a, b = x.as_float64(), y.as_float64()
        with np.errstate(all="ignore"):
            r = np.matmul(a, b) + acc.as_float64()
            mag = np.matmul(np.abs(a), np.abs(b)) + np.abs(acc.as_float64())
        k = x.shape[-1]
        bound = mag * (nx.accumulation_depth(k + 1) * nx.unit_roundoff(acc.dtype))
        if x.dtype == "tfloat32":  # the operands' rounding (ties may go either way)
            bound = bound + mag * 2 * nx.unit_roundoff("tfloat32")
        out = nx.perturb_by(nx.round_float(r, acc.dtype), acc.dtype, bound, exact=r)
        return Tile(np.broadcast_to(out, np.broadcast_shapes(out.shape, acc.shape)), acc.dtype)
    a = x.data.astype(np.int64)
    b = y.data.astype(np.int64)
    r = np.matmul(a, b) + acc.data.astype(np.int64)
    return Tile(nx.wrap_int(r, acc.dtype), acc.dtype)


def matmul(x, y):
    """x @ y: operands promoted, accumulated in the first allowed accumulator, cast back."""
    p = promote(x.dtype, y.dtype)
    if p not in MATMUL_ACC:
        raise nx.NotModelled(f"@ on {x.dtype} and {y.dtype}")
    x, y = x.astype(p), y.astype(p)
    squeeze = []
    if x.ndim == 1:
        x, squeeze = Tile(x.data[None, :], p), squeeze + [-2]
    if y.ndim == 1:
        y, squeeze = Tile(y.data[:, None], p), squeeze + [-1]
    out_shape = np.broadcast_shapes(x.shape[:-2], y.shape[:-2]) + (x.shape[-2], y.shape[-1])
    acc = Tile(np.zeros(out_shape, dtype=nx.STORAGE[MATMUL_ACC[p]]), MATMUL_ACC[p])
    r = mma(x, y, acc).astype(p)
    data = r.data
    for ax in sorted(squeeze):
        data = np.squeeze(data, axis=ax)
    return Tile(data, p)
