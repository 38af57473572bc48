"""Tiles of the reference: a NumPy array with its cuTile dtype, and cuTile's element-wise rules.

Promotion follows cutile-language.md b.5 (written here again, not imported from the generator,
so that a wrong rule in one is not hidden by the other); loose Python literals take the typed
side's dtype when their categories agree, else int32 / float32 (b.3). Integer arithmetic wraps;
`//` floors and `%` takes the divisor's sign (c.4); shifts are arithmetic for signed operands."""
import numpy as np

from . import numerics as nx
from .numerics import BOOL, UndefinedBehaviour


class Tile:
    __slots__ = ("data", "dtype")

    def __init__(self, data, dtype):
        self.data = np.asarray(data, dtype=nx.STORAGE[dtype])
        self.dtype = dtype

    # ---- Python protocol: scalars drive control flow and indices ------------------------------
    @property
    def shape(self):
        return tuple(self.data.shape)

    @property
    def ndim(self):
        return self.data.ndim

    def _scalar(self):
        if self.data.ndim != 0:
            raise nx.NotModelled(f"a tile of shape {self.shape} used as a Python scalar")
        return self.data.item()

    def __bool__(self):
        return bool(self._scalar())

    def __index__(self):
        if not nx.is_int(self.dtype):
            raise nx.NotModelled(f"a {self.dtype} tile used as an integer")
        return int(self._scalar())

    __int__ = __index__

    def __repr__(self):
        return f"Tile[{self.dtype},{self.shape}]({self.data!r})"

    def as_float64(self):
        return self.data.astype(np.float64)

    # ---- methods ------------------------------------------------------------------------------
    def astype(self, dtype, rounding_mode=None):
        return astype(self, dtype)

    def reshape(self, shape):
        from . import shape_ops
        return shape_ops.reshape(self, shape)

    def permute(self, axes):
        from . import shape_ops
        return shape_ops.permute(self, axes)

    def transpose(self, axis0=None, axis1=None):
        from . import shape_ops
        return shape_ops.transpose(self, axis0, axis1)

    def extract(self, index, shape):
        from . import shape_ops
        return shape_ops.extract(self, index, shape)

    def item(self):
        if self.data.size != 1:
            raise nx.NotModelled("item() of a tile with more than one element")
        return Tile(self.data.reshape(()), self.dtype)

    def __getitem__(self, key):
        key = key if isinstance(key, tuple) else (key,)
        if not all(k is None or k is Ellipsis or k == slice(None) for k in key):
            raise nx.NotModelled(f"tile subscript {key!r}")
        return Tile(self.data[key], self.dtype)

    # ---- operators ----------------------------------------------------------------------------
    def __add__(self, o): return binary("+", self, o)
    def __radd__(self, o): return binary("+", o, self)
    def __sub__(self, o): return binary("-", self, o)
    def __rsub__(self, o): return binary("-", o, self)
    def __mul__(self, o): return binary("*", self, o)
    def __rmul__(self, o): return binary("*", o, self)
    def __truediv__(self, o): return binary("/", self, o)
    def __rtruediv__(self, o): return binary("/", o, self)
    def __floordiv__(self, o): return binary("//", self, o)
    def __rfloordiv__(self, o): return binary("//", o, self)
    def __mod__(self, o): return binary("%", self, o)
    def __rmod__(self, o): return binary("%", o, self)
    def __pow__(self, o): return binary("**", self, o)
    def __rpow__(self, o): return binary("**", o, self)
    def __and__(self, o): return binary("&", self, o)
    def __rand__(self, o): return binary("&", o, self)
    def __or__(self, o): return binary("|", self, o)
    def __ror__(self, o): return binary("|", o, self)
    def __xor__(self, o): return binary("^", self, o)
    def __rxor__(self, o): return binary("^", o, self)
    def __lshift__(self, o): return binary("<<", self, o)
    def __rlshift__(self, o): return binary("<<", o, self)
    def __rshift__(self, o): return binary(">>", self, o)
    def __rrshift__(self, o): return binary(">>", o, self)
    def __lt__(self, o): return binary("<", self, o)
    def __le__(self, o): return binary("<=", self, o)
    def __gt__(self, o): return binary(">", self, o)
    def __ge__(self, o): return binary(">=", self, o)
    def __eq__(self, o): return binary("==", self, o)
    def __ne__(self, o): return binary("!=", self, o)
    def __neg__(self): return unary("neg", self)
    def __pos__(self): return self
    def __invert__(self): return unary("invert", self)
    def __abs__(self): return unary("abs", self)
    def __matmul__(self, o):
        from . import mma
        return mma.matmul(self, o)

    __hash__ = None


# ---- typing -----------------------------------------------------------------------------------
def promote(a, b):
    """b.5's table for two typed dtypes (None: cuTile refuses the pair)."""
    if a == b:
        return a
    if a in nx.RESTRICTED or b in nx.RESTRICTED:
        return None
    if a == BOOL or b == BOOL:
        return b if a == BOOL else a
    if nx.is_int(a) and nx.is_int(b):
        if (a in nx.SIGNED) != (b in nx.SIGNED):
            return None
        return a if nx.BITS[a] >= nx.BITS[b] else b
    if nx.is_float(a) and nx.is_float(b):
        if "float64" in (a, b):
            return "float64"
        if {a, b} == {"float16", "bfloat16"}:
            return None
        return "float32"
    return a if nx.is_float(a) else b


def literal_kind(value):
    if isinstance(value, (bool, np.bool_)):
        return BOOL
    if isinstance(value, (int, np.integer)):
        return "int"
    if isinstance(value, (float, np.floating)):
        return "float"
    raise nx.NotModelled(f"operand {value!r} of type {type(value).__name__}")


def typed_for_literal(dtype, value):
    """The dtype a loose literal takes next to a typed operand of `dtype` (b.5 rules 3-4)."""
    kind = literal_kind(value)
    lit_cat = {BOOL: 0, "int": 1, "float": 2}[kind]
    if lit_cat <= nx.category(dtype):
        return dtype
    return {BOOL: BOOL, "int": "int32", "float": "float32"}[kind]


def constant(value, dtype):
    """A loose literal as a 0-d tile of dtype (floats rounded, integers wrapped)."""
    if nx.is_float(dtype):
        return Tile(nx.round_float(float(value), dtype), dtype)
    if dtype == BOOL:
        return Tile(bool(value), dtype)
    lo, hi = nx.int_range(dtype)
    v = int(value)
    if not lo <= v <= hi:
        v = (v - lo) % (hi - lo + 1) + lo
    return Tile(np.array(v, dtype=nx.STORAGE[dtype]), dtype)


def as_tile(x, like=None):
    """A Tile for an operand; a loose literal typed against `like` (a dtype) when given."""
    if isinstance(x, Tile):
        return x
    if like is None:
        kind = literal_kind(x)
        return constant(x, {BOOL: BOOL, "int": "int32", "float": "float32"}[kind])
    return constant(x, typed_for_literal(like, x))


def operand_dtypes(a, b):
    """(tile a, tile b, promoted dtype) for a binary op; loose literals adapt to the typed side."""
    if not isinstance(a, Tile) and not isinstance(b, Tile):
        raise nx.NotModelled("a binary op of two loose literals reached a tile op")
    if not isinstance(a, Tile):
        a = as_tile(a, b.dtype)
    elif not isinstance(b, Tile):
        b = as_tile(b, a.dtype)
    p = promote(a.dtype, b.dtype)
    if p is None:
        raise nx.NotModelled(f"implicit promotion of {a.dtype} and {b.dtype}")
    return a, b, p


def astype(t, dtype):
    dtype = dtype_name(dtype)
    return Tile(nx.cast(t.data, t.dtype, dtype), dtype)


def dtype_name(d):
    return d if isinstance(d, str) else d.name


# ---- element-wise binary ----------------------------------------------------------------------
COMPARE = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal,
           "==": np.equal, "!=": np.not_equal}


def binary(op, a, b, rounding_mode=None):
    # Loose literals keep Python semantics between themselves (b.5 rule 1).
    if not isinstance(a, Tile) and not isinstance(b, Tile):
        return _python_binary(op, a, b)
    bitwise_dtype = None
    if op in ("&", "|", "^"):
        bitwise_dtype = (a if isinstance(a, Tile) else b).dtype
    a, b, p = operand_dtypes(a, b)
    x, y = cast_to(a, p), cast_to(b, p)
    with np.errstate(all="ignore"):
        if op in COMPARE:
            if nx.is_float(p):
                return Tile(COMPARE[op](x.astype(np.float64), y.astype(np.float64)), BOOL)
            return Tile(COMPARE[op](x, y), BOOL)
        if op in ("&", "|", "^"):
            f = {"&": np.bitwise_and, "|": np.bitwise_or, "^": np.bitwise_xor}[op]
            return Tile(f(x, y), bitwise_dtype if bitwise_dtype == p else p)
        if op in ("<<", ">>"):
            return _shift(op, x, y, p)
        if op in ("min", "max"):
            f = {"min": np.fmin, "max": np.fmax}[op] if nx.is_float(p) else \
                {"min": np.minimum, "max": np.maximum}[op]
            return Tile(f(x, y), p)
        if op == "atan2":  # a math function of two operands: an integer result is float32
            r = p if nx.is_float(p) else "float32"
            xf, yf = nx.cast(x, p, r).astype(np.float64), nx.cast(y, p, r).astype(np.float64)
            return Tile(nx.finish_float(np.arctan2(xf, yf), r, inexact=True,
                                        ulps=max(1, nx.math_ulps("atan2", r)), systematic=True), r)
        if op == "/":
            r = p if nx.is_float(p) else "float32"
            xf, yf = nx.cast(x, p, r).astype(np.float64), nx.cast(y, p, r).astype(np.float64)
            return Tile(nx.finish_float(xf / yf, r, rounding_mode=rounding_mode), r)
        if nx.is_float(p):
            return Tile(_float_binary(op, x.astype(np.float64), y.astype(np.float64), p, rounding_mode), p)
        if p == BOOL:
            raise nx.NotModelled(f"arithmetic {op} on bool")
        return Tile(_int_binary(op, x, y, p), p)


def cast_to(t, dtype):
    return t.data if t.dtype == dtype else nx.cast(t.data, t.dtype, dtype)


def _python_binary(op, a, b):
    import operator
    fns = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
           "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "&": operator.and_,
           "|": operator.or_, "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift,
           "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
           "==": operator.eq, "!=": operator.ne, "min": min, "max": max}
    return fns[op](a, b)


def _float_binary(op, x, y, dtype, rounding_mode=None):
    if op == "+":
        return nx.finish_float(x + y, dtype, rounding_mode=rounding_mode)
    if op == "-":
        return nx.finish_float(x - y, dtype, rounding_mode=rounding_mode)
    if op == "*":
        return nx.finish_float(x * y, dtype, rounding_mode=rounding_mode)
    if op == "//":
        q = nx.round_float(x / y, dtype).astype(np.float64)  # floor(x / y), the quotient rounded
        return nx.finish_float(np.floor(q), dtype)
    if op == "%":
        r = np.fmod(x, y)
        r = np.where((r != 0) & ((r < 0) != (y < 0)), r + y, r)
        return nx.finish_float(r, dtype)
    if op == "**":
        return nx.finish_float(np.power(x, y), dtype, inexact=True, ulps=nx.math_ulps("pow", dtype), systematic=True)
    raise nx.NotModelled(f"float operator {op}")


def _int_binary(op, x, y, dtype):
    wide = nx.BITS[dtype] <= 32
    # narrow integers compute in int64 and wrap, as C's promotion to int does on the GPU
    xi = x.astype(np.int64) if wide else x
    yi = y.astype(np.int64) if wide else y
    if op in ("//", "%"):
        if (np.asarray(y) == 0).any():
            raise UndefinedBehaviour(f"integer {op} by zero")
        if dtype in ("int32", "int64"):
            lo = nx.int_range(dtype)[0]
            if ((np.asarray(x) == lo) & (np.asarray(y) == -1)).any():
                raise UndefinedBehaviour(f"{dtype} minimum {op} -1 overflows")
    f = {"+": np.add, "-": np.subtract, "*": np.multiply, "//": np.floor_divide,
         "%": np.remainder}.get(op)
    if f is None:
        raise nx.NotModelled(f"integer operator {op}")
    return nx.wrap_int(f(xi, yi), dtype)


def _shift(op, x, y, dtype):
    width = nx.BITS[dtype]
    amount = np.asarray(y)
    if ((amount < 0) | (amount >= width)).any():
        raise UndefinedBehaviour(f"shift by {int(amount[(amount < 0) | (amount >= width)].flat[0])} of {dtype}")
    if op == "<<":
        return Tile(np.left_shift(x, amount.astype(x.dtype)), dtype)
    return Tile(np.right_shift(x, amount.astype(x.dtype)), dtype)


# ---- element-wise unary -----------------------------------------------------------------------
MATH = {"exp": np.exp, "log": np.log, "sin": np.sin, "cos": np.cos, "tan": np.tan, "sinh": np.sinh,
        "cosh": np.cosh, "tanh": np.tanh, "sqrt": np.sqrt, "rsqrt": lambda v: 1.0 / np.sqrt(v),
        "exp2": np.exp2, "log2": np.log2}


def unary(op, t):
    t = as_tile(t)
    d = t.dtype
    with np.errstate(all="ignore"):
        if op in MATH:
            r = d if nx.is_float(d) else "float32"
            v = nx.cast(t.data, d, r).astype(np.float64)
            exact = op in ("sqrt",)
            return Tile(nx.finish_float(MATH[op](v), r, inexact=None if exact else True,
                                        ulps=max(1, nx.math_ulps(op, r)), systematic=not exact), r)
        if op in ("floor", "ceil"):
            return Tile(getattr(np, op)(t.data), d)
        if op == "abs":
            if nx.is_float(d):
                return Tile(np.abs(t.data), d)
            return Tile(nx.wrap_int(np.abs(t.data.astype(np.int64)) if nx.BITS[d] <= 32 else np.abs(t.data), d), d)
        if op == "neg":
            if d == BOOL:
                return Tile(-t.data.astype(np.int32), "int32")
            if nx.is_float(d):
                return Tile(-t.data, d)
            return Tile(nx.wrap_int(-(t.data.astype(np.int64)) if nx.BITS[d] <= 32 else 0 - t.data, d), d)
        if op == "invert":
            return Tile(~t.data if d != BOOL else ~t.data, d)
        if op == "isnan":
            return Tile(np.isnan(t.data.astype(np.float64)), BOOL)
    raise nx.NotModelled(f"unary {op}")
