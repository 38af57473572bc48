"""Reductions and scans (c.8, c.9): result dtype = input dtype (bool -> int32), no widening.

Integer sums and products wrap, in any order the same. Float sums and products are computed
exactly in float64 and rounded once in the exact run. The perturbed run accumulates in the
dtype, one element after the other (one order the GPU may take: it shows intermediate overflow
and underflow, which rounding once from float64 hides: seed 20261127 programs 24, 1211), then
moves the result by the bound of a GPU's reassociated accumulation
(numerics.accumulation_depth roundings of the partial sums; numerics.perturb_by)."""
import numpy as np

from . import numerics as nx
from .numerics import BOOL
from .tile import Tile, binary


def _axes(t, axis):
    if axis is None:
        return tuple(range(t.ndim))
    axes = axis if isinstance(axis, tuple) else (axis,)
    return tuple(sorted(a % t.ndim for a in axes))


def _input(t):
    return t.astype("int32") if t.dtype == BOOL else t


def _count(t, axes):
    n = 1
    for a in axes:
        n *= t.shape[a]
    return n


def _sequential(v, axis, dtype, kind, rounding_mode):
    """Running sums or products of float64 values v along axis, each step rounded into dtype."""
    moved = np.moveaxis(v, axis, 0)
    out = np.empty(moved.shape, dtype=nx.STORAGE[dtype])
    acc = None
    with np.errstate(all="ignore"):
        for i in range(moved.shape[0]):
            step = moved[i] if acc is None else (acc + moved[i] if kind == "sum" else acc * moved[i])
            out[i] = nx.round_float(step, dtype, rounding_mode=rounding_mode)
            acc = out[i].astype(np.float64)
    return np.moveaxis(out, 0, axis)


def _reduce_float(x, axes, keepdims, kind, rounding_mode):
    v = x.as_float64()
    with np.errstate(all="ignore"):
        exact = v.sum(axis=axes, keepdims=keepdims) if kind == "sum" else v.prod(axis=axes, keepdims=keepdims)
        n = _count(x, axes)
        if kind == "sum":
            bound = np.abs(v).sum(axis=axes, keepdims=keepdims) * nx.accumulation_depth(n) * nx.unit_roundoff(x.dtype)
        else:
            bound = np.abs(exact) * n * nx.unit_roundoff(x.dtype)
    if not nx.MODE.perturbed:
        return Tile(nx.round_float(exact, x.dtype, rounding_mode=rounding_mode), x.dtype)
    rest = [a for a in range(v.ndim) if a not in axes]
    flat = np.transpose(v, rest + list(axes)).reshape([v.shape[a] for a in rest] + [n])
    seq = _sequential(flat, -1, x.dtype, kind, rounding_mode)[..., -1].reshape(np.shape(exact))
    return Tile(nx.perturb_by(seq, x.dtype, bound, rounding_mode=rounding_mode), x.dtype)


def sum_(x, axis=None, *, keepdims=False, rounding_mode=None, flush_to_zero=False):
    x = _input(x)
    axes = _axes(x, axis)
    if nx.is_float(x.dtype):
        return _reduce_float(x, axes, keepdims, "sum", rounding_mode)
    return Tile(np.sum(x.data, axis=axes, keepdims=keepdims, dtype=x.data.dtype), x.dtype)


def prod(x, axis=None, *, keepdims=False, rounding_mode=None, flush_to_zero=False):
    x = _input(x)
    axes = _axes(x, axis)
    if nx.is_float(x.dtype):
        return _reduce_float(x, axes, keepdims, "prod", rounding_mode)
    with np.errstate(all="ignore"):
        return Tile(np.prod(x.data, axis=axes, keepdims=keepdims, dtype=x.data.dtype), x.dtype)


def max_(x, axis=None, *, keepdims=False, flush_to_zero=False, propagate_nan=False):
    return _extreme(x, axis, keepdims, np.fmax if nx.is_float(_input(x).dtype) else np.maximum, -np.inf)


def min_(x, axis=None, *, keepdims=False, flush_to_zero=False, propagate_nan=False):
    return _extreme(x, axis, keepdims, np.fmin if nx.is_float(_input(x).dtype) else np.minimum, np.inf)


def _extreme(x, axis, keepdims, ufunc, identity):
    """NaNs ignored (maxNum/minNum). A reduction may fold in any number of identities (Tile IR's
    definition of a reduction), so where every element is NaN the result is NaN or the identity
    (-inf for max): the exact run gives NaN, the perturbed run the identity, and compare.py
    counts such an element as unstable."""
    x = _input(x)
    axes = _axes(x, axis)
    r = ufunc.reduce(x.data, axis=axes, keepdims=keepdims)
    if nx.is_float(x.dtype) and nx.MODE.perturbed:
        all_nan = np.isnan(x.as_float64()).all(axis=axes, keepdims=keepdims)
        r = np.where(all_nan, np.asarray(identity, dtype=r.dtype), r)
    return Tile(r, x.dtype)


def argmax(x, axis=None, *, keepdims=False, propagate_nan=False):
    return _arg(x, axis, keepdims, np.argmax, -np.inf)


def argmin(x, axis=None, *, keepdims=False, propagate_nan=False):
    return _arg(x, axis, keepdims, np.argmin, np.inf)


def _arg(x, axis, keepdims, fn, nan_as):
    """Index of the first extreme (ties: the smallest index); NaNs ignored; axis=None: flat."""
    data = x.data
    if nx.is_float(x.dtype):
        data = np.where(np.isnan(data.astype(np.float64)), nan_as, data.astype(np.float64))
    if axis is None:
        r = np.asarray(fn(data.reshape(-1)))
        if keepdims:
            r = r.reshape((1,) * x.ndim)
    else:
        r = fn(data, axis=axis % x.ndim, keepdims=keepdims)
    return Tile(np.asarray(r).astype(np.int32), "int32")


def reduce(x, axis, func, identity, *, keepdims=False):
    """A custom combiner, applied left to right along the axis (vectorised over the others);
    each combined value is cast back to the input dtype (b.6)."""
    axis = axis % x.ndim
    moved = np.moveaxis(x.data, axis, 0)
    acc = Tile(moved[0], x.dtype)
    for i in range(1, moved.shape[0]):
        acc = _combine(func, acc, Tile(moved[i], x.dtype), x.dtype)
    r = acc.data
    if keepdims:
        r = np.expand_dims(r, axis)
    return Tile(r, x.dtype)


def _combine(func, a, b, dtype):
    r = func(a, b)
    if not isinstance(r, Tile):
        from .tile import as_tile
        r = as_tile(r, dtype)
    return r if r.dtype == dtype else r.astype(dtype)


# ---- scans ------------------------------------------------------------------------------------
def _scan_float(x, axis, reverse, kind, rounding_mode=None):
    v = x.as_float64()
    if reverse:
        v = np.flip(v, axis)
    with np.errstate(all="ignore"):
        if kind == "sum":
            r = np.cumsum(v, axis=axis)
            mag = np.cumsum(np.abs(v), axis=axis)
        else:
            r = np.cumprod(v, axis=axis)
            mag = np.abs(r)
        n = np.arange(1, v.shape[axis] + 1)
        shape = [1] * v.ndim
        shape[axis] = -1
        depth = np.array([nx.accumulation_depth(int(k)) for k in n]).reshape(shape)
        bound = mag * depth * nx.unit_roundoff(x.dtype)
    if nx.MODE.perturbed:
        out = nx.perturb_by(_sequential(v, axis, x.dtype, kind, rounding_mode), x.dtype, bound,
                            rounding_mode=rounding_mode)
    else:
        out = nx.round_float(r, x.dtype, rounding_mode=rounding_mode)
    return np.flip(out, axis) if reverse else out


def _scan_int(x, axis, reverse, fn):
    v = np.flip(x.data, axis) if reverse else x.data
    with np.errstate(all="ignore"):
        r = fn(v, axis=axis, dtype=x.data.dtype)
    return np.flip(r, axis) if reverse else r


def cumsum(x, axis=0, *, reverse=False, rounding_mode=None, flush_to_zero=False):
    x = _input(x)
    axis = axis % x.ndim
    if nx.is_float(x.dtype):
        return Tile(_scan_float(x, axis, reverse, "sum", rounding_mode), x.dtype)
    return Tile(_scan_int(x, axis, reverse, np.cumsum), x.dtype)


def cumprod(x, axis=0, *, reverse=False, rounding_mode=None, flush_to_zero=False):
    x = _input(x)
    axis = axis % x.ndim
    if nx.is_float(x.dtype):
        return Tile(_scan_float(x, axis, reverse, "prod", rounding_mode), x.dtype)
    return Tile(_scan_int(x, axis, reverse, np.cumprod), x.dtype)


def scan(x, axis, func, identity, *, reverse=False):
    axis = axis % x.ndim
    moved = np.moveaxis(x.data, axis, 0)
    order = range(moved.shape[0] - 1, -1, -1) if reverse else range(moved.shape[0])
    out = np.empty_like(moved)
    acc = None
    for i in order:
        cur = Tile(moved[i], x.dtype)
        acc = cur if acc is None else _combine(func, acc, cur, x.dtype)
        out[i] = acc.data
    return Tile(np.moveaxis(out, 0, axis), x.dtype)
