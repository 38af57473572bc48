"""`ct.kernel`, `ct.function` and `ct.launch`.

A launch binds the arguments into a key (per parameter: the Constant's value, the scalar's
dtype, the array's dtype, rank and the facts the signature records) and looks it up in the
kernel's table of loaded specializations. A miss derives the signature text, builds (or finds
in the disk cache) the shared library and adds it; a hit is one dict lookup and one ctypes call.
Warm launches do that in a function generated per argument types (_warm_launch), which falls
back to the generic binding here for anything else.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import inspect
import numbers
import threading
import types
from pathlib import Path

from . import _annotations, _args, _build, _call_abi, _device, _errors, _synthesize, _warm_launch
from ._args import ARRAY, BOOL, FLOAT, INT, LIST, TUPLE, ArgError
from ._dtypes import SIGNATURE_NAME, bool_, float32, int32, int64

MAX_GRID_DIM = 2**24 - 1   # cuTile's limit on every grid dimension


class ByTarget:
    """A kernel option value per architecture: `ByTarget(sm_100=2, default=1)`."""

    def __init__(self, *, default=None, **by_arch):
        for k in by_arch:
            if not (k.startswith("sm_") and k[3:].isdigit()):
                raise ValueError(f"ByTarget: '{k}' is not an architecture name like sm_100")
        self.default = default
        self.by_arch = dict(by_arch)

    def __repr__(self):
        items = [f"{k}={v!r}" for k, v in self.by_arch.items()]
        if self.default is not None:
            items.append(f"default={self.default!r}")
        return f"ByTarget({', '.join(items)})"


def _check_option(name, value, ok, what):
    values = list(value.by_arch.values()) + ([value.default] if value.default is not None else []) \
        if isinstance(value, ByTarget) else [value]
    for v in values:
        if v is not None and not (isinstance(v, int) and ok(v)):
            raise ValueError(f"{name} should be {what}, got {v!r}")


class kernel:  # noqa: N801 - cuTile's name
    """`@ct.kernel`, `@ct.kernel(occupancy=..., num_ctas=..., opt_level=..., num_worker_warps=...)`
    or `ct.kernel(fn, ...)`. The options are hints; the transpiler reads them from the source."""

    def __new__(cls, function=None, /, **options):
        if function is None:
            return lambda f: kernel(f, **options)
        return super().__new__(cls)

    def __init__(self, function=None, /, *, num_ctas=None, occupancy=None, opt_level=3,
                 num_worker_warps=None):
        if not isinstance(function, types.FunctionType):
            raise TypeError("`kernel` decorator must be applied to a Python function")
        _check_option("num_ctas", num_ctas, lambda v: 1 <= v <= 16 and v & (v - 1) == 0,
                      "a power of 2 in [1, 16]")
        _check_option("occupancy", occupancy, lambda v: 1 <= v <= 32, "in [1, 32]")
        _check_option("opt_level", opt_level, lambda v: 0 <= v <= 3, "in [0, 3]")
        _check_option("num_worker_warps", num_worker_warps, lambda v: v in (4, 8), "either 4 or 8")
        self._options = dict(num_ctas=num_ctas, occupancy=occupancy, opt_level=opt_level,
                             num_worker_warps=num_worker_warps)
        self._pyfunc = function
        functools.update_wrapper(self, function)
        self._params, self._variadic = _annotations.parameter_infos(function)
        self._specs: dict[tuple, _Spec] = {}
        self._failures: dict[tuple, Exception] = {}
        self._lock = threading.Lock()              # guards _key_locks
        self._key_locks: dict[tuple, threading.Lock] = {}
        self._module = None   # what _source() found, once
        self._hints_of = None   # the kernel whose replace_hints made this one
        self._warm = {}   # argument types -> warm launcher (see _warm_launch)
        self._warm_last = _warm_launch.always_miss   # the one the last launch used

    def replace_hints(self, **hints):
        replaced = kernel(self._pyfunc, **{**self._options, **hints})
        replaced._hints_of = self
        return replaced

    def __call__(self, *args, **kwargs):
        raise TypeError("Tile kernels cannot be called directly. Use cuda.tile.launch() instead.")

    def __repr__(self):
        return f"<tile kernel {self._pyfunc.__qualname__}>"

    # -- specializations ---------------------------------------------------------------------

    def _specialize(self, key, bound):
        """The specialization for `key` (cold path): derive the signature, build, load. One
        lock per key: other specializations build meanwhile (the tuner builds many at once)."""
        with self._lock:
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        with key_lock:
            spec = self._specs.get(key)
            if spec is not None:
                return spec
            if key in self._failures:   # the same error again, without re-running the tools
                raise self._failures[key]
            try:
                spec = _Spec.create(self, bound)
            except _errors.TileError as e:
                self._failures[key] = e
                raise
            self._specs[key] = spec
            return spec

    def _source(self):
        """(file to transpile, the Synthesized module it holds or None): the kernel's own file
        where the transpiler finds the kernel there, else a module synthesized from the
        kernel's source and the values its names stand for (see _synthesize)."""
        if self._same_as_base():
            return self._hints_of._source()
        if self._module is None:
            fn = self._pyfunc
            try:
                path = inspect.getsourcefile(fn)
            except TypeError:
                path = None
            path = Path(path).resolve() if path and Path(path).is_file() else None
            # A kernel with other hints than its base is found in the file only by the name a
            # top-level `k2 = k.replace_hints(...)` gives it; else its module is synthesized with
            # its own hints.
            bound_as = None
            if self._hints_of is not None:
                bound_as = self._global_name() or "<not bound at the top level>"
            if _synthesize.file_serves(fn, path, bound_as):
                self._module = (path, None)
            else:
                synthesized = _synthesize.synthesize(fn, self._options)
                self._module = (_build.write_synthesized(synthesized), synthesized)
        return self._module

    def _name_in_module(self):
        """The name the transpiler knows this kernel by: the decorated function's, or the name a
        functional-form `k = ct.kernel(f)` bound it to."""
        if self._same_as_base():
            return self._hints_of._name_in_module()
        if self._source()[1] is not None:
            return self._pyfunc.__name__   # the synthesized module decorates the def itself
        return self._global_name() or self._pyfunc.__name__

    def _same_as_base(self):
        """A replace_hints kernel whose hints make the same code as its base's is built as its
        base is: the same hints (the tuner without `hints_fn`), or only another num_ctas, which
        tile2cu checks and then ignores (docs/coverage.md)."""
        if self._hints_of is None:
            return False
        def code_hints(options):
            return {k: v for k, v in options.items() if k != "num_ctas"}
        return code_hints(self._options) == code_hints(self._hints_of._options)

    def _global_name(self):
        """The name this kernel object goes by in its function's module, or None."""
        g = self._pyfunc.__globals__
        if g.get(self._pyfunc.__name__) is self:
            return self._pyfunc.__name__
        for name, value in g.items():
            if value is self:
                return name
        return None


def function(func=None, /, *, host=False, tile=True):
    """`@ct.function`: marks a tile helper. Without host=True, calling it from host code is an
    error (as in cuTile); the transpiler inlines it into kernels either way."""
    def decorate(f):
        if host:
            return f

        @functools.wraps(f)
        def tile_only(*args, **kwargs):
            # cuTile's words first (its test_helper_function.py matches them).
            raise RuntimeError(f"Device functions can only be called from device code. "
                               f"'{f.__name__}' is a tile function: call it from a kernel or "
                               "another tile function")
        tile_only.__tile_function__ = f
        return tile_only
    return decorate if func is None else decorate(func)


# ---- binding arguments -------------------------------------------------------------------------

class _Bound:
    """What one launch's arguments say, for deriving a signature on a miss."""

    __slots__ = ("constraints", "argtypes")

    def __init__(self):
        self.constraints = []   # "name=constraint" per parameter
        self.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint]


def _const_key(value, where, arg_index=None, item=None):
    """The signature key of Constant argument `value`. `arg_index` (0-based) and `item` (the
    index in a tuple argument) name a tuple's item in cuTile's words when it is no constant."""
    t = type(value)
    if t not in (bool, int, float, tuple) and not isinstance(value, bool):
        # numpy and other numeric scalars stand for the Python number they hold
        if isinstance(value, numbers.Integral):
            value, t = int(value), int
        elif isinstance(value, numbers.Real):
            value, t = float(value), float
    if t is int and not -(2**63) <= value < 2**64:   # [2**63, 2**64): cuTile's uint64
        raise ArgError(_errors.TileValueError, f"{where}: Integer constant {value} is out of "
                                               "range of any supported integer type")
    if t is bool or t is int:
        return (t, value)
    if t is float:  # inf and nan too: the signature spells them as repr() does
        return (t, value)
    if t is tuple:
        return (t, tuple(_const_key(v, where, arg_index, n if item is None else item)
                         for n, v in enumerate(value)))
    if item is not None:   # cuTile's text first (test_tuple_arguments.py matches it)
        raise ArgError(TypeError, f"Invalid item #{item} of kernel argument #{arg_index}: Could not "
                                  f"interpret object of type '{t.__name__}' as a constant. ({where}: "
                                  "a Constant parameter takes a bool, int, float or a tuple of them)")
    raise ArgError(TypeError, f"{where}: a Constant parameter takes a bool, int, float or a "
                              f"tuple of them, got {t.__name__}")


def _const_literal(key):
    t, v = key
    if t is tuple:
        items = [_const_literal(k) for k in v]
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    return repr(v)


_SCALAR_CTYPES = {"bool": ctypes.c_bool, "int8": ctypes.c_int8, "int16": ctypes.c_int16,
                  "int32": ctypes.c_int32, "int64": ctypes.c_int64, "uint8": ctypes.c_uint8,
                  "uint16": ctypes.c_uint16, "uint32": ctypes.c_uint32,
                  "uint64": ctypes.c_uint64, "float16": ctypes.c_float,
                  "bfloat16": ctypes.c_float, "float32": ctypes.c_float,
                  "float64": ctypes.c_double}


def _argument_count_message(expected: int, given: int) -> str:
    """cuTile's text, singular and plural as English has them (its tests match it)."""
    noun = "argument" if expected == 1 else "arguments"
    verb = "was" if given == 1 else "were"
    return f"Kernel expects {expected} {noun} but {given} {verb} given"


def _bind(k: kernel, args, bound: _Bound | None):
    """(key, flat C arguments) for `args`; fills `bound` (the signature) when given."""
    params = k._params
    if type(args) is not tuple:
        if not isinstance(args, (tuple, list)):
            raise TypeError(f"launch: kernel arguments must be a tuple, got {type(args).__name__}")
        args = tuple(args)
    if len(args) != len(params):
        raise TypeError(_argument_count_message(len(params), len(args)))
    key, flat = [], []
    for i, (info, value) in enumerate(zip(params, args)):
        if info.constant:
            if info.constant_with_scalar:
                raise ArgError(TypeError, f"{_where(i, info)}: Constant annotation cannot be "
                                          "combined with ScalarAnnotation/ScalarInt64")
            ck = _const_key(value, _where(i, info), i)
            key.append(ck)
            if bound is not None:
                bound.constraints.append(f"{info.name}={_const_literal(ck)}")
            continue
        text = _bind_value(value, info, i, key, flat, bound)
        if bound is not None:
            bound.constraints.append(f"{info.name}={text}")
    return tuple(key), flat


def _bind_value(value, info, i, key, flat, bound, item=None):
    """Appends one run-time argument's key and C arguments (a tuple's, item by item, as the
    generated entry takes its leaves); returns its signature constraint when `bound` is given.
    `item`: the index of the top-level tuple item `value` is in (0-based, as cuTile counts)."""
    if info.constant:   # an item annotated ct.Constant in a tuple annotation
        ck = _const_key(value, _where(i, info), i, item)
        key.append(ck)
        return _const_literal(ck) if bound is not None else None
    kind, reader = _args.kind_of(value)
    if kind == ARRAY:
        try:
            dtype, shape, strides, ptr = reader(value)
        except ArgError as e:
            raise ArgError(e.kind, f"{_where(i, info)}: {e}") from None
        nd = len(shape)
        if nd and info.array_annotation is None and dtype in SIGNATURE_NAME \
                and min(strides) >= 0:
            key.append((dtype, nd, ptr % 16 == 0, strides[-1] == 1, ()))   # the usual case
        else:
            facts = _array_facts(dtype, shape, strides, ptr, info.array_annotation, _where(i, info))
            key.append((dtype, nd) + facts)
        flat.append(ptr)
        flat.extend(shape)
        flat.extend(strides)
        if bound is None:
            return None
        bound.argtypes += [ctypes.c_void_p] + [ctypes.c_int64] * (2 * nd)
        return _array_constraint(dtype, shape, key[-1][2:])
    if kind == INT or kind == BOOL or kind == FLOAT:
        dtype = _scalar_dtype(kind, info, value, i)
        key.append(dtype)
        flat.append(value)
        if bound is None:
            return None
        name = SIGNATURE_NAME[dtype]
        bound.argtypes.append(_SCALAR_CTYPES[name])
        return name
    if kind == LIST:
        list_key, words = _list_arg(value, info, i)
        key.append(list_key)
        flat.append(words)
        flat.append(len(value))
        if bound is None:
            return None
        bound.argtypes += [ctypes.POINTER(ctypes.c_int64), ctypes.c_int32]
        return _list_constraint(list_key)
    if kind == TUPLE:
        if type(value) is not tuple:   # cuTile's words: a namedtuple's fields are not items
            where = f"kernel argument #{i}" if item is None else f"item #{item} of kernel argument #{i}"
            raise ArgError(TypeError, f"Invalid {where}: '{type(value).__name__}' is a subclass of "
                                      "'tuple'. Only plain tuples are accepted.")
        if info.items is not None and len(info.items) != len(value):
            raise ArgError(TypeError, f"{_where(i, info)}: Received a tuple of length "
                                      f"{len(value)} for a parameter annotated as a tuple of "
                                      f"length {len(info.items)}")
        items = []
        key.append(("tuple", len(value)))
        for n, v in enumerate(value):
            item_info = info if info.items is None else info.items[n]
            items.append(_bind_value(v, item_info, i, key, flat, bound, n if item is None else item))
        if bound is None:
            return None
        # An empty tuple passes nothing; `()` is its constraint, run-time and constant alike.
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    what = "None" if value is None else f"an object of type {type(value).__name__}"
    raise ArgError(TypeError, f"{_where(i, info)}: {what} is not an array (DLPack or "
                              "__cuda_array_interface__), bool, int, float, list of arrays or tuple of those")


def _where(i, info):
    return f"Invalid kernel argument #{i + 1} ({info.name})"


def _scalar_dtype(kind, info, value, i):
    if kind == BOOL:
        return bool_
    if kind == FLOAT:
        return float32
    dtype = info.scalar_dtype or int32
    lo, hi = (-(2**63), 2**63 - 1) if dtype is int64 else (_args.INT32_MIN, _args.INT32_MAX)
    if not lo <= value <= hi:
        raise ArgError(ValueError, f"{_where(i, info)}: {value} does not fit in {dtype.name} "
                                   "(annotate the parameter ct.ScalarInt64 for 64-bit integers)")
    return dtype


def _array_facts(dtype, shape, strides, ptr, annotation, where):
    """(align16, contiguous, static) as the signature records them, or the reason the array
    cannot be passed. `static` is () without an annotation, else (dims, strides): the shape
    and stride values of the annotated axes, None elsewhere (strides () when none listed)."""
    if dtype not in SIGNATURE_NAME:
        raise ArgError(_errors.TileUnsupportedFeatureError,
                       f"{where}: arrays of {dtype.name} are not supported by "
                       "tile2cu yet")
    for s in strides:
        if s < 0:
            raise ArgError(TypeError, f"{where}: negative strides are not supported "
                                      f"(strides {strides})")
    static = ()
    ann = annotation
    if ann is not None:
        if ann.index_dtype is not None and ann.index_dtype is not int32:
            raise ArgError(_errors.TileUnsupportedFeatureError,
                           f"{where}: 64-bit array indexing (IndexedWithInt64) is not "
                           "supported by tile2cu yet")
        dims = _static_axes("static_shape_dims", ann.static_shape_dims, len(shape), where)
        stride_dims = _static_axes("static_stride_dims", ann.static_stride_dims, len(shape),
                                   where)
        static_dims = tuple(shape[d] if d in dims else None for d in range(len(shape)))
        if 0 in static_dims:
            raise ArgError(ValueError, f"{where}: a static dim cannot be 0")
        static_strides = ()
        if stride_dims:
            static_strides = tuple(strides[d] if d in stride_dims else None
                                   for d in range(len(shape)))
            # cuTile's rule: once strides are listed, a unit last stride is no longer inferred
            # (it is a fact only where listed), so arrays differing there share a kernel.
            return (ptr % 16 == 0, False, (static_dims, static_strides))
        static = (static_dims, static_strides)
    return (ptr % 16 == 0, bool(strides) and strides[-1] == 1, static)


def _static_axes(field, axes, rank, where):
    """The axes an ArrayAnnotation field lists, made non-negative; cuTile's errors for an axis
    out of range or listed twice."""
    seen = set()
    for axis in axes:
        if not -rank <= axis < rank:
            raise ArgError(ValueError, f"{where}: {field} contains axis {axis} but array rank "
                                       f"is {rank}")
        if axis % rank in seen:
            raise ArgError(ValueError, f"{where}: {field} contains duplicate axis {axis}")
        seen.add(axis % rank)
    return seen


def _list_arg(items, info, i):
    """A list of arrays (cuTile's `list` parameter): its key (the items' common dtype and rank,
    whether every item is 16-byte aligned and has a unit last stride) and the table the C entry
    takes, per item 1 + 2n int64 words (pointer, shape, strides in elements). The table only
    has to live through the call: the generated launcher copies it to the device."""
    if not items:
        raise ArgError(TypeError, f"{_where(i, info)}: an empty list of arrays has no dtype "
                                  "to specialize the kernel on")
    words, common, static = [], None, None
    aligned = contiguous = True
    annotation = _list_item_annotation(info)
    for n, item in enumerate(items):
        kind, reader = _args.kind_of(item)
        if kind != ARRAY:
            what = "None" if item is None else f"an object of type {type(item).__name__}"
            raise ArgError(TypeError, f"{_where(i, info)}: item {n} of the list is {what}, "
                                      "not an array")
        where = f"{_where(i, info)}: item {n} of the list"
        try:
            dtype, shape, strides, ptr = reader(item)
        except ArgError as e:
            raise ArgError(e.kind, f"{where}: {e}") from None
        item_aligned, item_contiguous, item_static = _array_facts(dtype, shape, strides, ptr,
                                                                  annotation, where)
        if common is None:
            common = (dtype, len(shape))
        elif (dtype, len(shape)) != common:
            raise ArgError(TypeError, f"{_where(i, info)}: item {n} of the list is "
                                      f"{dtype.name}[{len(shape)}-d], item 0 is "
                                      f"{common[0].name}[{common[1]}-d]: the items of a list "
                                      "share a dtype and a rank")
        if static is None:
            static = item_static
        elif item_static != static:
            raise ArgError(ValueError, _static_mismatch(_where(i, info), static, item_static, n))
        aligned = aligned and item_aligned
        contiguous = contiguous and item_contiguous
        words += [ptr, *shape, *strides]
    return (LIST, *common, aligned, contiguous, static), (ctypes.c_int64 * len(words))(*words)


def _list_item_annotation(info):
    """The ArrayAnnotation a ListAnnotation gives its items (`element=ct.ArrayAnnotation(...)`
    or `element=ct.IndexedWithInt64`), or None."""
    element = getattr(info.list_annotation, "element", None)
    if isinstance(element, _annotations.ArrayAnnotation):
        return element
    for meta in getattr(element, "__metadata__", ()):
        if isinstance(meta, _annotations.ArrayAnnotation):
            return meta
    return None


def _static_mismatch(where, first, other, n):
    """cuTile's words: one kernel serves the whole list, so its items must agree on the shape
    and stride values the annotation makes compile-time constants."""
    for what, ours, theirs in (("shape", first[0], other[0]), ("stride", first[1], other[1])):
        for axis, (a, b) in enumerate(zip(ours, theirs)):
            if a != b:
                return (f"{where}: the list's items vary in static {what} at axis {axis} "
                        f"(item 0: {a}, item {n}: {b})")
    raise AssertionError("items differ in no static shape or stride")


def _list_constraint(key):
    _, dtype, rank, aligned, contiguous, static = key
    static_dims, static_strides = static or ((), ())
    dims = [str(static_dims[k]) if static_dims and static_dims[k] is not None else "?"
            for k in range(rank)]
    item = f"{SIGNATURE_NAME[dtype]}[{', '.join(dims)}]"
    if static_strides:
        item += f" strides({', '.join('?' if s is None else str(s) for s in static_strides)})"
    item += (" align16" if aligned else "") + (" contiguous" if contiguous else "")
    return f"list[{item}]"


def _array_constraint(dtype, shape, facts):
    aligned, contiguous, static = facts
    static_dims, static_strides = static or ((), ())
    dims = [str(d) if static_dims and static_dims[k] is not None else "?"
            for k, d in enumerate(shape)]
    text = f"{SIGNATURE_NAME[dtype]}[{', '.join(dims)}]"
    if static_strides:
        text += f" strides({', '.join('?' if s is None else str(s) for s in static_strides)})"
    return text + (" align16" if aligned else "") + (" contiguous" if contiguous else "")


# ---- specializations ---------------------------------------------------------------------------

class _Spec:
    """One loaded specialization of a kernel."""

    __slots__ = ("entry", "signature", "folder", "cold_seconds", "compiler", "fallback_reason")

    @classmethod
    def create(cls, k: kernel, bound_args) -> "_Spec":
        if k._variadic:
            raise _errors.TileSyntaxError(
                f"kernel '{k._pyfunc.__name__}' has a variadic parameter '{k._variadic}': kernel "
                "parameters cannot be *args or **kwargs")
        source, synthesized = k._source()
        bound = _Bound()
        _bind(k, bound_args, bound)
        signature = ", ".join(bound.constraints)
        name = k._name_in_module()
        # A name the transpiler's naming rule keeps as it is (docs/naming.md), so the C entry is
        # tile2cu_<spec_name>; the kernel's own name could be escaped (`_private`, `kAdd`).
        spec_name = f"spec_{hashlib.sha256(signature.encode()).hexdigest()[:10]}"
        built = _build.build(source, name, spec_name, signature, _device.devices().archs,
                             _call_abi.entry_argtypes(bound.argtypes), synthesized)
        self = cls()
        self.entry, self.signature = built.entry, signature
        self.folder, self.cold_seconds = built.folder, built.cold_seconds
        self.compiler, self.fallback_reason = built.compiler, built.fallback_reason
        return self


# ---- launch ------------------------------------------------------------------------------------

_max_grid = None


def _grid(grid):
    global _max_grid
    if _max_grid is None:
        _max_grid = _device.devices().max_grid
    if type(grid) is tuple and len(grid) == 1:   # the common case, checked in one line
        g = grid[0]
        if type(g) is int and 0 < g <= MAX_GRID_DIM and g <= _max_grid[0]:
            return g, 1, 1
    if type(grid) is not tuple:
        if isinstance(grid, int) and not isinstance(grid, bool):
            grid = (grid,)
        elif isinstance(grid, (tuple, list)):
            grid = tuple(grid)
        else:
            raise TypeError(f"grid must be a tuple of at most 3 ints, got {type(grid).__name__}")
    n = len(grid)
    if n == 0:   # as cuTile: an empty grid is one block
        return 1, 1, 1
    if n == 3:
        gx, gy, gz = grid
    elif n == 1:
        gx, gy, gz = grid[0], 1, 1
    elif n == 2:
        gx, gy, gz = grid[0], grid[1], 1
    else:
        raise ValueError(f"grid must have at most 3 dimensions, got {n}")
    for axis, (g, limit) in enumerate(zip((gx, gy, gz), _max_grid)):
        if type(g) is not int:
            if isinstance(g, bool) or not isinstance(g, int):
                raise TypeError(f"grid dimension {axis} must be an int, got {type(g).__name__}")
        if g < 1:
            raise ValueError(f"grid dimension {axis} must be positive, got {g}")
        if g > MAX_GRID_DIM:
            # cuTile's text (its tests match it)
            raise ValueError(f"Grid[{axis}] exceeds 24-bit limit: max={MAX_GRID_DIM}, got={g}. "
                             "Use multiple kernel launches for larger workloads.")
        if g > limit:
            raise ValueError(f"grid dimension {axis} is {g}, above the device's maximum {limit}")
    return gx, gy, gz


_CUDA_ERRORS = {1: "cudaErrorInvalidValue", 2: "cudaErrorMemoryAllocation",
                9: "cudaErrorInvalidConfiguration", 98: "cudaErrorInvalidDeviceFunction",
                100: "cudaErrorNoDevice", 101: "cudaErrorInvalidDevice",
                209: "cudaErrorNoKernelImageForDevice", 400: "cudaErrorInvalidResourceHandle",
                700: "cudaErrorIllegalAddress", 716: "cudaErrorMisalignedAddress",
                719: "cudaErrorLaunchFailure", 900: "cudaErrorStreamCaptureUnsupported",
                901: "cudaErrorStreamCaptureInvalidated"}


def _launch_error(rc, k, args):
    name = _CUDA_ERRORS.get(rc, f"CUDA error {rc}")
    if rc == 1:
        too_big = _int32_overflow(k, args)
        if too_big is not None:   # as cuTile, which raises OverflowError converting the value
            return OverflowError(f"{too_big} does not fit in int32: tile2cu's kernels index "
                                 "arrays with int32 (64-bit indexing, ct.IndexedWithInt64, is "
                                 "not supported by tile2cu yet)")
        # The generated launcher answers cudaErrorInvalidValue for several causes; name them all.
        return ValueError(f"{name}: {k._pyfunc.__name__}'s launcher refused the launch: an array's "
                          f"shape or stride does not fit in int32 (tile2cu's kernels index with "
                          f"int32), or the kernel needs more shared memory than the device gives "
                          f"a block")
    if rc == 9:
        return ValueError(f"{name}: the grid was rejected by the kernel's launcher")
    return RuntimeError(f"launching {k._pyfunc.__name__} failed: {name}")


def _int32_overflow(k, args):
    """Which array argument's shape or stride exceeds int32, named, or None. Asked only after
    the generated launcher refused a launch (it checks the same), so launches pay nothing."""
    def arrays(value, where):
        kind, reader = _args.kind_of(value)
        if kind == ARRAY:
            yield where, value, reader
        elif kind in (TUPLE, LIST):
            for n, item in enumerate(value):
                yield from arrays(item, f"{where}, item {n}")

    for i, (info, value) in enumerate(zip(k._params, args)):
        if info.constant:
            continue
        for where, array, reader in arrays(value, _where(i, info)):
            try:
                _, shape, strides, _ = reader(array)
            except ArgError:
                continue
            for what, values in (("shape", shape), ("strides", strides)):
                if any(not _args.INT32_MIN <= v <= _args.INT32_MAX for v in values):
                    return f"{where}: {what} {tuple(values)}"
    return None


def launch(stream, grid, kernel_, args, /, *, programmatic_dependent_launch=False):
    """Queues `kernel_` on `stream` over `grid` with `args`, compiling its specialization for
    these argument kinds on first use. No synchronization, no allocation: safe in CUDA graph
    capture and across streams."""
    if type(kernel_) is not kernel:
        raise TypeError(f"launch expects a @ct.kernel, got {type(kernel_).__name__}")
    if programmatic_dependent_launch:
        raise _errors.TileUnsupportedFeatureError(
            "programmatic_dependent_launch is not supported by tile2cu yet")
    try:
        gx, gy, gz = _grid(grid)
        handle = stream if type(stream) is int else _args.stream_handle(stream)
    except ArgError as e:
        raise e.kind(str(e)) from None
    rc = kernel_._warm_last(handle, gx, gy, gz, args)
    if rc is _warm_launch.MISS:
        rc = _launch_by_types(kernel_, handle, gx, gy, gz, args)
    if rc:
        raise _launch_error(rc, kernel_, args)


def _launch_by_types(k, handle, gx, gy, gz, args):
    """A launch the last call's warm launcher did not take: the one for these argument types,
    else the generic path (which raises what is wrong with the arguments, or builds)."""
    warm = _warm_launch.binder_for(k, args)
    rc = warm(handle, gx, gy, gz, args)
    if rc is not _warm_launch.MISS:
        k._warm_last = warm
        return rc
    try:
        key, flat = _bind(k, args, None)
    except ArgError as e:
        raise e.kind(str(e)) from None
    spec = k._specs.get(key)
    if spec is None:
        try:
            spec = k._specialize(key, args)
        except ArgError as e:
            raise e.kind(str(e)) from None
    if any(isinstance(v, ctypes.Array) for v in flat) and _device.stream_is_capturing(handle):
        # The launcher copies a list's table of pointers from host memory freed when it returns:
        # a graph would replay that copy from freed memory. cuTile refuses lists here too.
        raise RuntimeError("List argument in CUDAGraph isn't supported yet (tile2cu copies the "
                           "list's table from host memory at each launch)")
    return spec.entry(handle, gx, gy, gz, *flat)


def prepare(kernel_, args) -> None:
    """Builds (or loads from the cache) the specialization that launching `kernel_` with
    `args` needs, without launching it; raises what that launch would raise."""
    try:
        key, _ = _bind(kernel_, args, None)
        if key not in kernel_._specs:
            kernel_._specialize(key, args)
    except ArgError as e:
        raise e.kind(str(e)) from None


def cdiv(a, b):
    """Ceiling division, on the host as in tile code."""
    return -(-a // b)
