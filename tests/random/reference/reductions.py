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


def _partials(v, kind, total):
    """The two extreme partial results an accumulation in some order may meet on the way, from
    `total` (a reduction over axes, or a running scan over one: a function of an array): for a
    sum, the sums of the positive and of the negative terms; for a product, the products of the
    magnitudes above 1 and of those below 1."""
    with np.errstate(all="ignore"):
        if kind == "sum":
            return total(np.maximum(v, 0.0)), total(np.minimum(v, 0.0))
        a = np.abs(v)
        return total(np.maximum(a, 1.0)), total(np.minimum(a, 1.0))


def _product_bound(exact, n, dtype, largest):
    """Error bound of an n-term product in dtype: a unit roundoff per step, plus, where a
    partial product falls below the normal range, half a subnormal's spacing per step, scaled
    by at most the largest partial product that multiplies it afterwards (seed 20261128 program
    1652: a float16 cumprod through subnormal partials, 1.2% off the exact value)."""
    with np.errstate(all="ignore"):
        sub = (np.maximum(n, 1) - 1) * nx.smallest_subnormal(dtype) / 2 * np.where(np.isfinite(largest), largest, 0.0)
        return np.abs(exact) * n * nx.unit_roundoff(dtype) + sub


def _order_dependent(out, dtype, kind, high, low, exact):
    """The perturbed run's result where some order of the accumulation overflows or underflows:
    any association is cuTile's (c.8), so a partial sum of the positive terms beyond the
    largest finite value may give +inf even where the whole sum is finite, both signs
    overflowing may give inf - inf = NaN (seed 20261128 program 2202: a float16 sum, NaN on the
    GPU); a partial product may overflow (inf), underflow to zero, or both (NaN): program 2958, a
    float16 cumprod giving -inf where the exact product underflows to -0.0. Such an element is
    unstable for compare.py."""
    over = nx.overflow_threshold(dtype)
    out = np.asarray(out).copy()
    with np.errstate(all="ignore"):
        e = np.asarray(exact, dtype=np.float64)
        if kind == "sum":
            up, down = high >= over, -low >= over
            nan = up & down
            inf = np.where(up, np.inf, np.where(down, -np.inf, 0.0))
            zero = np.zeros_like(nan)
        else:
            up, down = high >= over, low <= nx.smallest_subnormal(dtype) / 2
            nan = up & down
            sign = np.where(np.signbit(e), -1.0, 1.0)
            inf, zero = np.where(up, sign * np.inf, 0.0), down & ~up & ~(e == 0)
        out = np.where(nan & ~np.isnan(e), np.nan, out)
        out = np.where(~nan & (inf != 0) & ~np.isinf(e), inf, out)
        if kind != "sum":
            out = np.where(zero, np.copysign(0.0, e), out)
    return out.astype(nx.STORAGE[dtype])


def _reduce_float(x, axes, keepdims, kind, rounding_mode):
    v = x.as_float64()
    total = (lambda a: a.sum(axis=axes, keepdims=keepdims)) if kind == "sum" else \
        (lambda a: a.prod(axis=axes, keepdims=keepdims))
    with np.errstate(all="ignore"):
        exact = total(v)
        n = _count(x, axes)
        high, low = _partials(v, kind, total)
        if kind == "sum":
            bound = np.abs(v).sum(axis=axes, keepdims=keepdims) * nx.accumulation_depth(n) * nx.unit_roundoff(x.dtype)
        else:
            bound = _product_bound(exact, n, x.dtype, high)
    if not nx.MODE.perturbed:
        return Tile(nx.round_float(exact, x.dtype, rounding_mode=rounding_mode), x.dtype)
    rest = [a for a in range(v.ndim) if a not in axes]
    flat = np.transpose(v, rest + list(axes)).reshape([v.shape[a] for a in rest] + [n])
    seq = _sequential(flat, -1, x.dtype, kind, rounding_mode)[..., -1].reshape(np.shape(exact))
    out = nx.perturb_by(seq, x.dtype, bound, rounding_mode=rounding_mode, exact=exact)
    return Tile(_order_dependent(out, x.dtype, kind, high, low, exact), x.dtype)


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
    return _arg(x, axis, keepdims, np.max)


def argmin(x, axis=None, *, keepdims=False, propagate_nan=False):
    return _arg(x, axis, keepdims, np.min)


def _arg(x, axis, keepdims, extreme):
    """Index of the first extreme (ties: the smallest index); axis=None: flat. NaNs are ignored,
    as cuTile does (test_reduction.py::test_reduce_argmaxmin_nan): argmax of [NaN, -inf] is 1,
    and a row of only NaNs gives 0, its first index."""
    data = x.data.astype(np.float64) if nx.is_float(x.dtype) else x.data
    if axis is None:
        data, ax = data.reshape(-1), 0
    else:
        ax = axis % x.ndim
    if nx.is_float(x.dtype):
        valid = ~np.isnan(data)
        fill = -np.inf if extreme is np.max else np.inf
        best = extreme(np.where(valid, data, fill), axis=ax, keepdims=True)
        hit = valid & (data == best)
        r = np.where(hit.any(axis=ax), np.argmax(hit, axis=ax), 0)
    else:
        best = extreme(data, axis=ax, keepdims=True)
        r = np.argmax(data == best, axis=ax)
    r = np.asarray(r)
    if keepdims:
        r = r.reshape((1,) * x.ndim) if axis is None else np.expand_dims(r, ax)
    return Tile(r.astype(np.int32), "int32")


def reduce(x, axis, func, identity, *, keepdims=False):
    """A custom combiner along the axis (vectorised over the others); each combined value is cast
    back to the input dtype (b.6). Tile IR defines a reduction as the combination of the elements
    in any association, with any number of identities folded in: the exact run goes left to
    right, the perturbed run pairs neighbours in a tree whose leaves each take an identity (seed
    20261128: a bf16 sum by p + q on the GPU rounded as neither order, programs 2168, 2744)."""
    axis = axis % x.ndim
    moved = np.moveaxis(x.data, axis, 0)
    if nx.MODE.perturbed:
        with nx.MODE.systematic(nx.MODE.site_sign()):
            level = _with_identity(func, Tile(moved, x.dtype), identity, x.dtype)
            while level.shape[0] > 1:
                if level.shape[0] % 2:
                    level = Tile(np.concatenate([level.data, _identity_like(level.data[:1], identity, x.dtype).data]),
                                 x.dtype)
                level = _combine(func, Tile(level.data[0::2], x.dtype), Tile(level.data[1::2], x.dtype), x.dtype)
        acc = Tile(level.data[0], x.dtype)
    else:
        acc = Tile(moved[0], x.dtype)
        for i in range(1, moved.shape[0]):
            acc = _combine(func, acc, Tile(moved[i], x.dtype), x.dtype)
    r = acc.data
    if keepdims:
        r = np.expand_dims(r, axis)
    return Tile(r, x.dtype)


def _identity_like(data, identity, dtype):
    from .tile import constant
    return Tile(np.broadcast_to(constant(identity, dtype).data, data.shape).copy(), dtype)


def _with_identity(func, t, identity, dtype):
    """func(identity, t) element-wise: an identity folded in, which Tile IR allows anywhere."""
    return _combine(func, _identity_like(t.data, identity, dtype), t, dtype)


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
        high, low = _partials(v, kind, lambda a: (np.cumsum if kind == "sum" else np.cumprod)(a, axis=axis))
        if kind == "sum":
            depth = np.array([nx.accumulation_depth(int(k)) for k in n]).reshape(shape)
            bound = mag * depth * nx.unit_roundoff(x.dtype)
        else:
            bound = _product_bound(r, n.reshape(shape), x.dtype, high)
    if nx.MODE.perturbed:
        out = nx.perturb_by(_sequential(v, axis, x.dtype, kind, rounding_mode), x.dtype, bound,
                            rounding_mode=rounding_mode, exact=r)
        out = _order_dependent(out, x.dtype, kind, high, low, r)
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
    """A custom combiner's inclusive scan. As for reduce, any association with identities folded
    in is a valid result: the exact run goes element after element, the perturbed run doubles
    its reach each step (Hillis-Steele), the elements it does not reach yet combined with the
    identity (seed 20261128 programs 584, 1977: a max scan over NaNs gives -inf on the GPU, as
    maximum(-inf, NaN) does; 145, 302, 1323: p + q in another order)."""
    axis = axis % x.ndim
    moved = np.moveaxis(x.data, axis, 0)
    if nx.MODE.perturbed:
        data = np.flip(moved, 0) if reverse else moved
        level, reach = Tile(data, x.dtype), 1
        with nx.MODE.systematic(nx.MODE.site_sign()):
            while reach < data.shape[0]:
                head = _with_identity(func, Tile(level.data[:reach], x.dtype), identity, x.dtype)
                tail = _combine(func, Tile(level.data[:-reach], x.dtype), Tile(level.data[reach:], x.dtype), x.dtype)
                level, reach = Tile(np.concatenate([head.data, tail.data]), x.dtype), reach * 2
            if data.shape[0] == 1:
                level = _with_identity(func, level, identity, x.dtype)
        out = np.flip(level.data, 0) if reverse else level.data
        return Tile(np.moveaxis(out, 0, axis), x.dtype)
    order = range(moved.shape[0] - 1, -1, -1) if reverse else range(moved.shape[0])
    out = np.empty_like(moved)
    acc = None
    for i in order:
        cur = Tile(moved[i], x.dtype)
        acc = cur if acc is None else _combine(func, acc, cur, x.dtype)
        out[i] = acc.data
    return Tile(np.moveaxis(out, 0, axis), x.dtype)
