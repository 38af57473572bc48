"""`cuda.tile.compilation`'s description of a kernel signature for ahead-of-time export: a
calling convention and, per kernel parameter, a constraint (what the argument is and what may be
assumed of it). Values are checked and normalized when built, with cuTile's exception classes
(TypeError, ValueError), so a signature cuTile refuses is refused here too.

tile2cu compiles only part of what a constraint can say (see _export): dtype, rank, static
shapes and strides, a 16-byte aligned base, a unit last stride. The rest is kept and printed
but only makes a kernel faster in cuTile; dropping an assumption never makes a kernel wrong.
"""

from __future__ import annotations

import dataclasses
import numbers
import struct
from collections import Counter
from dataclasses import dataclass

from . import _dtypes


class CallingConvention:
    """How an exported kernel takes its arguments, by name, short code and version. Version 2
    adds static shapes and tuple parameters."""

    _KNOWN = {"t1": ("cutile_python_v1", 1), "t2": ("cutile_python_v2", 2)}

    def __init__(self, code: str):
        if code not in self._KNOWN:
            raise ValueError(f"Unknown calling convention code '{code}'")
        self._code = code

    @staticmethod
    def cutile_python_v1() -> "CallingConvention":
        return CallingConvention("t1")

    @staticmethod
    def cutile_python_v2() -> "CallingConvention":
        return CallingConvention("t2")

    @staticmethod
    def from_code(code: str, /) -> "CallingConvention":
        return CallingConvention(code)

    @property
    def name(self) -> str:
        return self._KNOWN[self._code][0]

    @property
    def code(self) -> str:
        return self._code

    @property
    def version(self) -> int:
        return self._KNOWN[self._code][1]

    def __eq__(self, other):
        return isinstance(other, CallingConvention) and other._code == self._code

    def __hash__(self):
        return hash(self._code)

    def __repr__(self):
        return f"CallingConvention({self.name!r}, {self._code!r})"


def _set(obj, **fields):
    for name, value in fields.items():
        object.__setattr__(obj, name, value)


def _check_dtype(dtype, what):
    if not isinstance(dtype, _dtypes.DType):
        raise TypeError(f"Expected a DType for the `{what}` parameter, got '{dtype}'")


@dataclass(frozen=True, init=False)
class ScalarConstraint:
    """A run-time scalar parameter of `dtype`."""
    dtype: _dtypes.DType

    def __init__(self, dtype):
        _check_dtype(dtype, "dtype")
        _set(self, dtype=dtype)


def _per_axis(value, ndim, field, default, check):
    """A per-axis field as a tuple of `ndim` entries: None means `default` everywhere, a single
    int means that value everywhere, a sequence is checked entry by entry."""
    if value is None:
        return (default,) * ndim
    if isinstance(value, int) and not isinstance(value, bool):
        check(0, value, field)
        return (value,) * ndim
    entries = tuple(value)
    if len(entries) != ndim:
        raise ValueError(f"Length of `{field}` {entries} doesn't match ndim={ndim}")
    for axis, entry in enumerate(entries):
        check(axis, entry, field)
    return entries


def _optional_int(axis, v, field):
    if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
        raise TypeError(f"Element #{axis} of `{field}` must be None or int, got {v}")


def _optional_extent(axis, v, field):
    _optional_int(axis, v, field)
    if v is not None and v < 0:
        raise ValueError(f"Element #{axis} of `{field}` must be non-negative, got {v}")


def _factor(axis, v, field):
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"Element #{axis} of `{field}` must be int, got {v}")
    if v <= 0:
        raise TypeError(f"Element #{axis} of `{field}` must be strictly positive, got {v}")


def _alias_groups(groups):
    if isinstance(groups, str):
        raise TypeError("`alias_groups` cannot be a string")
    groups = tuple(groups)
    for i, g in enumerate(groups):
        if not isinstance(g, str):
            raise TypeError(f"Element #{i} of `alias_groups` has non-string type {type(g)}")
    return groups


@dataclass(frozen=True, init=False)
class ArrayConstraint:
    """An array parameter: dtype, rank, index type, and the assumptions the kernel may make.
    Divisibility is in elements; a known stride or extent makes the axis' divisibility and
    lower bound redundant (they become 1 and None), after checking that they agree."""
    dtype: _dtypes.DType
    ndim: int
    index_dtype: _dtypes.DType
    stride_lower_bound_incl: tuple
    alias_groups: tuple
    may_alias_internally: bool
    stride_constant: tuple
    shape_constant: tuple
    stride_divisible_by: tuple
    shape_divisible_by: tuple
    base_addr_divisible_by: int

    def __init__(self, dtype, ndim, *, index_dtype, stride_lower_bound_incl, alias_groups,
                 may_alias_internally, stride_constant=None, shape_constant=None,
                 stride_divisible_by=1, shape_divisible_by=1, base_addr_divisible_by=1):
        _check_dtype(dtype, "dtype")
        if isinstance(ndim, bool) or not isinstance(ndim, int):
            raise TypeError(f"Expected an integer for `ndim`, got '{ndim}'")
        if ndim < 0:
            raise ValueError("`ndim` cannot be negative")
        if index_dtype not in (_dtypes.int32, _dtypes.uint32, _dtypes.int64):
            raise ValueError(f"`index_dtype` must be int32 or int64, got {index_dtype}")
        strides = _per_axis(stride_constant, ndim, "stride_constant", None, _optional_int)
        shape = _per_axis(shape_constant, ndim, "shape_constant", None, _optional_extent)
        lower = _per_axis(stride_lower_bound_incl, ndim, "stride_lower_bound_incl", None,
                          _optional_int)
        lower = tuple(_known_drops_bound(axis, s, b)
                      for axis, (s, b) in enumerate(zip(strides, lower)))
        stride_div = _per_axis(stride_divisible_by, ndim, "stride_divisible_by", 1, _factor)
        stride_div = tuple(_known_drops_factor("stride_constant", axis, s, f)
                           for axis, (s, f) in enumerate(zip(strides, stride_div)))
        shape_div = _per_axis(shape_divisible_by, ndim, "shape_divisible_by", 1, _factor)
        shape_div = tuple(_known_drops_factor("shape_constant", axis, s, f)
                          for axis, (s, f) in enumerate(zip(shape, shape_div)))
        if isinstance(base_addr_divisible_by, bool) or not isinstance(base_addr_divisible_by, int):
            raise TypeError("Expected an integer for the `base_addr_divisible_by` parameter, "
                            f"got {base_addr_divisible_by}")
        if base_addr_divisible_by <= 0:
            raise ValueError("`base_addr_divisible_by` must be strictly positive, "
                             f"got {base_addr_divisible_by}")
        _set(self, dtype=dtype, ndim=ndim, index_dtype=index_dtype,
             stride_lower_bound_incl=lower, alias_groups=_alias_groups(alias_groups),
             may_alias_internally=bool(may_alias_internally), stride_constant=strides,
             shape_constant=shape, stride_divisible_by=stride_div, shape_divisible_by=shape_div,
             base_addr_divisible_by=base_addr_divisible_by)


def _known_drops_bound(axis, known, bound):
    if known is None or bound is None:
        return bound
    if known < bound:
        raise ValueError(f"stride_lower_bound_incl[{axis}] is set to {known}, which is less "
                         f"than the lower bound {bound}")
    return None


def _known_drops_factor(field, axis, known, factor):
    if known is None:
        return factor
    if known % factor:
        raise ValueError(f"{field}[{axis}] is set to {known}, which is not divisible by {factor}")
    return 1


@dataclass(frozen=True, init=False)
class ListConstraint:
    """A list of arrays, each described by `element`. `alias_groups` concern the list's own
    storage; `elements_may_alias`, its arrays among themselves."""
    element: ArrayConstraint
    alias_groups: tuple
    elements_may_alias: bool

    def __init__(self, element, *, alias_groups, elements_may_alias):
        if not isinstance(element, ArrayConstraint):
            raise TypeError("ListConstraint only supports an ArrayConstraint as the `element` "
                            f"constraint, got '{element}'")
        _set(self, element=element, alias_groups=_alias_groups(alias_groups),
             elements_may_alias=bool(elements_may_alias))


@dataclass(frozen=True, init=False)
class TupleConstraint:
    """A tuple parameter, one constraint per item (plain values and tuples are shorthand)."""
    items: tuple

    def __init__(self, items):
        _set(self, items=tuple(to_constraint(i) for i in items))


@dataclass(frozen=True, eq=False)
class ConstantConstraint:
    """A compile-time constant: bool, int or float (1, True and 1.0 are three constants)."""
    value: object

    def __post_init__(self):
        if type(self.value) not in (bool, int, float):
            raise TypeError(f"Unexpected constant value type {type(self.value)}")

    def __eq__(self, other):
        if type(other) is not ConstantConstraint:
            return NotImplemented
        if type(self.value) is not type(other.value):
            return False
        if isinstance(self.value, float):   # bit for bit, so a NaN equals itself
            return struct.pack("=d", self.value) == struct.pack("=d", other.value)
        return self.value == other.value

    def __hash__(self):
        return hash((type(self.value), struct.pack("=d", self.value)
                     if isinstance(self.value, float) else self.value))


PARAMETER_CONSTRAINTS = (ScalarConstraint, ArrayConstraint, ListConstraint, TupleConstraint,
                         ConstantConstraint)


def to_constraint(c):
    """A constraint, or the shorthand for one: a bool, int or float is a ConstantConstraint,
    a tuple a TupleConstraint."""
    if isinstance(c, PARAMETER_CONSTRAINTS):
        return c
    if type(c) in (bool, int, float):
        return ConstantConstraint(c)
    if isinstance(c, numbers.Integral):   # numpy scalars stand for the Python number they hold
        return ConstantConstraint(int(c))
    if isinstance(c, numbers.Real):
        return ConstantConstraint(float(c))
    if isinstance(c, tuple):
        return TupleConstraint(c)
    raise TypeError(f"Can't interpret {c!r} as a parameter constraint")


def alias_group_uses(parameters):
    """(constraint, its alias groups) for every array and list, tuples' items included, in
    parameter order."""
    for p in parameters:
        if isinstance(p, ArrayConstraint):
            yield p, p.alias_groups
        elif isinstance(p, ListConstraint):
            yield p, p.alias_groups
            yield from alias_group_uses([p.element])
        elif isinstance(p, TupleConstraint):
            yield from alias_group_uses(p.items)


def _check_alias_groups(parameters):
    uses, kind = Counter(), {}
    for constraint, groups in alias_group_uses(parameters):
        if len(set(groups)) != len(groups):
            raise ValueError(f"Alias group occurs more than once in the group list {list(groups)}")
        for g in groups:
            uses[g] += 1
            first = kind.setdefault(g, type(constraint))
            if first is not type(constraint):
                raise ValueError(f"Alias group `{g}` is used in two constraints of different "
                                 f"types {first.__name__} and {type(constraint).__name__}: list "
                                 "storage cannot alias an array")
    for g, n in uses.items():
        if n == 1:
            raise ValueError(f"Alias group `{g}` is mentioned only once, and is therefore "
                             "redundant: an empty tuple of alias groups says that a parameter "
                             "aliases nothing")


def _check_convention(c, cconv):
    if isinstance(c, ArrayConstraint):
        if cconv.version < 2 and any(d is not None for d in c.shape_constant):
            raise ValueError("Static array shapes are not supported by calling convention "
                             f"{cconv.name}; version >= 2 is required")
    elif isinstance(c, ListConstraint):
        _check_convention(c.element, cconv)
    elif isinstance(c, TupleConstraint):
        if cconv.version < 2:
            raise ValueError("Tuple parameters are not supported by calling convention "
                             f"{cconv.name}; version >= 2 is required")
        for item in c.items:
            _check_convention(item, cconv)


@dataclass(frozen=True, init=False)
class KernelSignature:
    """One specialization to export: a constraint per kernel parameter, the calling convention,
    and the symbol the exported kernel gets (None: export_kernel chooses one)."""
    parameters: tuple
    calling_convention: CallingConvention
    symbol: str | None

    def __init__(self, parameters, calling_convention, symbol=None):
        if symbol is not None and not isinstance(symbol, str):
            raise TypeError(f"`symbol` must be a string, got {type(symbol)}")
        if not isinstance(calling_convention, CallingConvention):
            raise TypeError(f"Unsupported calling convention {calling_convention}")
        parameters = tuple(to_constraint(c) for c in parameters)
        _check_alias_groups(parameters)
        for c in parameters:
            _check_convention(c, calling_convention)
        _set(self, parameters=parameters, calling_convention=calling_convention, symbol=symbol)

    def with_symbol(self, symbol) -> "KernelSignature":
        return dataclasses.replace(self, symbol=symbol)

    def with_mangled_symbol(self, function_name: str) -> "KernelSignature":
        """This signature named as cuTile names `function_name` exported for it."""
        from ._mangling import mangle_kernel_name
        return self.with_symbol(mangle_kernel_name(function_name, self))

    @staticmethod
    def from_kernel_args(kernel, kernel_args, calling_convention, *, symbol=None):
        """The signature a launch with `kernel_args` would compile (see _derive_constraints)."""
        from . import _derive_constraints
        if not isinstance(calling_convention, CallingConvention):
            raise TypeError(f"Unsupported calling convention {calling_convention}")
        constraints = _derive_constraints.from_args(kernel, kernel_args, calling_convention)
        sig = KernelSignature(constraints, calling_convention, symbol)
        return sig if symbol is not None else sig.with_mangled_symbol(kernel._pyfunc.__name__)
