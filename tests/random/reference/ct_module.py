"""The stand-in for `cuda.tile` that a kernel's source runs against in the reference.

Every name the generator writes (tilegen/) is here with cuTile's semantics; flush_to_zero is
accepted and ignored, and a directed rounding mode is taken as round-to-nearest (at most one unit
in the last place away, inside the comparison's tolerance) except where a result overflows
(numerics.round_float)."""
import types

import numpy as np

from . import memory, mma as mma_ops, numerics as nx, reductions, shape_ops
from .tile import Tile, as_tile, binary, constant, operand_dtypes, unary, cast_to


class DType:
    """ct.float32 and the others: equal to the dtype name a Tile or an Array carries (a kernel's
    `x.dtype == ct.float32`), and callable as a scalar cast (`ct.int32(s)`, e.2)."""
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"ct.{self.name}"

    def __eq__(self, other):
        return self.name == (other.name if isinstance(other, DType) else other)

    def __hash__(self):
        return hash(self.name)

    def __call__(self, value):
        return as_tile(value).astype(self.name) if isinstance(value, Tile) else constant(value, self.name)


class _Enum:
    def __init__(self, name):
        self.name = name


def _enum(*names):
    return types.SimpleNamespace(**{n: _Enum(n) for n in names})


class _Constant:
    def __getitem__(self, item):
        return self


class _Grid:
    """The block being run: its coordinates and the grid's extents."""
    bid = (0, 0, 0)
    dims = (1, 1, 1)


GRID = _Grid()


def build():
    ct = types.ModuleType("cuda.tile (reference)")
    for name in nx.STORAGE:
        setattr(ct, name, DType(name))
    ct.PaddingMode = _enum("UNDETERMINED", "ZERO", "NEG_ZERO", "NAN", "POS_INF", "NEG_INF")
    ct.RoundingMode = _enum("RN", "RZ", "RM", "RP", "RA", "FULL", "APPROX", "RZI")
    ct.MemoryOrder = _enum("WEAK", "RELAXED", "ACQUIRE", "RELEASE", "ACQ_REL")
    ct.MemoryScope = _enum("NONE", "BLOCK", "CLUSTER", "DEVICE", "SYS")
    ct.Constant = _Constant()
    ct.kernel = lambda fn=None, **_: fn if fn is not None else (lambda f: f)
    ct.ByTarget = lambda default=None, **_: default  # kernel options only: hints the GPU may ignore
    ct.function = ct.kernel
    ct.Tile = Tile

    ct.bid = lambda axis: Tile(np.int32(GRID.bid[axis]), "int32")
    ct.num_blocks = lambda axis: Tile(np.int32(GRID.dims[axis]), "int32")
    ct.cdiv = cdiv
    ct.num_tiles = num_tiles

    ct.load, ct.store = memory.load, memory.store
    ct.gather, ct.scatter = memory.gather, memory.scatter
    for kind in ("add", "max", "min", "and", "or", "xor", "xchg"):
        setattr(ct, f"atomic_{kind}", _atomic(kind))
    ct.atomic_cas = lambda array, indices, expected, desired, **kw: \
        memory.atomic("cas", array, indices, desired, expected, **kw)

    for name, op in (("add", "+"), ("sub", "-"), ("mul", "*"), ("truediv", "/"), ("floordiv", "//"),
                     ("mod", "%"), ("pow", "**"), ("bitwise_and", "&"), ("bitwise_or", "|"),
                     ("bitwise_xor", "^"), ("bitwise_lshift", "<<"), ("bitwise_rshift", ">>"),
                     ("less", "<"), ("less_equal", "<="), ("greater", ">"), ("greater_equal", ">="),
                     ("equal", "=="), ("not_equal", "!="), ("minimum", "min"), ("maximum", "max"),
                     ("atan2", "atan2")):
        setattr(ct, name, _binary(op))
    for name in ("exp", "log", "sin", "cos", "tan", "sinh", "cosh", "tanh", "sqrt", "rsqrt", "exp2",
                 "log2", "floor", "ceil", "abs", "isnan"):
        setattr(ct, name, _unary(name))
    ct.negative = _unary("neg")
    ct.bitwise_not = _unary("invert")
    ct.where = where
    ct.astype = lambda x, dtype, rounding_mode=None: as_tile(x).astype(dtype)

    ct.arange, ct.full, ct.zeros, ct.ones = shape_ops.arange, shape_ops.full, shape_ops.zeros, shape_ops.ones
    ct.reshape, ct.permute, ct.transpose = shape_ops.reshape, shape_ops.permute, shape_ops.transpose
    ct.broadcast_to, ct.expand_dims, ct.cat = shape_ops.broadcast_to, shape_ops.expand_dims, shape_ops.cat
    ct.extract = shape_ops.extract

    ct.sum, ct.prod, ct.max, ct.min = reductions.sum_, reductions.prod, reductions.max_, reductions.min_
    ct.argmax, ct.argmin, ct.reduce = reductions.argmax, reductions.argmin, reductions.reduce
    ct.cumsum, ct.cumprod, ct.scan = reductions.cumsum, reductions.cumprod, reductions.scan
    ct.mma, ct.matmul = mma_ops.mma, mma_ops.matmul
    return ct


def _atomic(kind):
    def op(array, indices, update, **kw):
        return memory.atomic(kind, array, indices, update, **kw)
    return op


def _binary(op):
    def fn(x, y, rounding_mode=None, **_options):  # flush_to_zero / propagate_nan: see the docstring
        return binary(op, x, y, rounding_mode=rounding_mode)
    return fn


def _unary(name):
    def fn(x, **_options):
        return unary(name, x)
    return fn


def cdiv(x, y):
    """Ceiling division of integers, exact: (x + y - 1) // y would wrap for x near the dtype's
    top (int8 127 by 7), where the GPU's quotient rounded toward +inf does not."""
    if not isinstance(x, Tile) and not isinstance(y, Tile):
        return -(-x // y)
    a, b, p = operand_dtypes(x, y)
    if not nx.is_int(p):
        raise nx.NotModelled(f"cdiv of {p}")
    num, den = cast_to(a, p).astype(object), cast_to(b, p).astype(object)
    if (den == 0).any():
        raise nx.UndefinedBehaviour("cdiv by zero")
    lo, hi = nx.int_range(p)
    wrapped = (-(-num // den) - lo) % (hi - lo + 1) + lo  # Python ints: only int_min / -1 wraps
    return Tile(np.asarray(wrapped, dtype=object).astype(nx.STORAGE[p]), p)


def num_tiles(array, axis, shape, order="C"):
    """cdiv(array.shape[order[axis]], shape[axis]) as an int32 scalar (c.1)."""
    rank = array.ndim
    perm = tuple(range(rank)) if order == "C" else (tuple(reversed(range(rank))) if order == "F" else tuple(order))
    extent = array.extent[perm[axis % rank]]
    n = shape[axis % rank]
    return Tile(np.int32(-(-extent // n)), "int32")


def where(cond, x, y):
    c = as_tile(cond)
    c = c if c.dtype == nx.BOOL else c.astype("bool_")
    a, b, p = operand_dtypes(x, y)
    shape = np.broadcast_shapes(c.shape, a.shape, b.shape)
    return Tile(np.where(np.broadcast_to(c.data, shape), cast_to(a, p), cast_to(b, p)), p)


# Python builtins as cuTile reads them inside a kernel (a.5): two-argument element-wise min/max.
def builtin_min(a, b):
    return binary("min", a, b)


def builtin_max(a, b):
    return binary("max", a, b)


def builtin_abs(a):
    return unary("abs", a) if isinstance(a, Tile) else abs(a)
