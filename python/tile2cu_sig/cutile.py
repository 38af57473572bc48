"""tile2cu signatures <-> cuTile's `KernelSignature`, so both compilers specialize alike.

tile2cu's kernels index with int32, handle any non-negative stride (zero too) and assume no
two arrays are distinct: its signature states only dtypes, ranks, static extents, a 16-byte
aligned base (`align16`) and a unit last stride (`contiguous`). `to_kernel_signature` states
exactly that in cuTile's terms (`assumptions="declared"`; cuTile 1.7 refuses any signature that
allows negative strides, so strides >= 0 is always stated), or adds what every array fresh from
torch or CuPy also satisfies (`assumptions="fresh_arrays"`: 16-byte aligned, no aliasing).

`from_kernel_signature` goes back. Assumptions tile2cu cannot state are dropped (dropping an
assumption never makes a kernel wrong) and listed; constraints it cannot honour (int64
indices, dataclasses, pointer parameters, dtypes it lacks) raise ValueError.

Needs cuda-tile (imported on first use).
"""
from __future__ import annotations

import inspect

from .text import Array, ArrayList, Constant, Param, Scalar, Signature, DTYPES

ALIGN_BYTES = 16
SHARED_ALIAS_GROUP = "tile2cu_may_alias"


def _ct():
    import cuda.tile as ct
    return ct


def _cc():
    import cuda.tile.compilation as cc
    return cc


def kernel_param_names(kernel) -> list:
    """Names of the parameters of a @ct.kernel that take a constraint, in order (*args and
    **kwargs take none; cuTile itself rejects them). The kernel object hides its signature."""
    func = getattr(kernel, "_pyfunc", kernel)
    variadic = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    return [n for n, p in inspect.signature(func).parameters.items() if p.kind not in variadic]


def _array_constraint(a: Array, assumptions: str, shared_group: bool):
    ct, cc = _ct(), _cc()
    fresh = assumptions == "fresh_arrays"
    stride_constant = None
    if a.contiguous and a.ndim > 0:
        stride_constant = (None,) * (a.ndim - 1) + (1,)
    shape_constant = tuple(a.dims) if any(d is not None for d in a.dims) else None
    return cc.ArrayConstraint(
        getattr(ct, a.dtype), a.ndim,
        index_dtype=ct.int32,
        stride_lower_bound_incl=0,  # cuTile supports no negative strides
        alias_groups=() if fresh or not shared_group else (SHARED_ALIAS_GROUP,),
        may_alias_internally=not fresh,
        stride_constant=stride_constant,
        shape_constant=shape_constant,
        base_addr_divisible_by=ALIGN_BYTES if (a.align16 or fresh) else 1)


def to_kernel_signature(sig: Signature, param_names, *, assumptions: str = "declared",
                        calling_convention=None, symbol_base: str | None = None):
    """A cuTile KernelSignature for `sig` over a kernel whose parameters are `param_names`.

    assumptions: "declared" (only what the tile2cu signature says) or "fresh_arrays".
    symbol_base: kernel name for the mangled symbol (default: sig.kernel; None leaves the symbol
    to export_kernel).
    """
    if assumptions not in ("declared", "fresh_arrays"):
        raise ValueError(f"assumptions must be 'declared' or 'fresh_arrays', got {assumptions!r}")
    ct, cc = _ct(), _cc()
    constraints = sig.by_name(param_names)
    # A list's elements are arrays too (one alias-group mention for all of them); cuTile refuses
    # a group named only once.
    n_arrays = sum(isinstance(c, (Array, ArrayList)) for c in constraints.values())
    out = []
    for c in constraints.values():
        if isinstance(c, Array):
            out.append(_array_constraint(c, assumptions, shared_group=n_arrays > 1))
        elif isinstance(c, ArrayList):
            out.append(_list_constraint(c, assumptions, shared_group=n_arrays > 1))
        elif isinstance(c, Scalar):
            out.append(cc.ScalarConstraint(getattr(ct, c.dtype)))
        else:
            out.append(_constant_constraint(c.value))
    cconv = calling_convention or cc.CallingConvention.cutile_python_v2()
    ks = cc.KernelSignature(out, cconv)
    base = symbol_base or sig.kernel
    return ks.with_mangled_symbol(base) if base else ks


def _list_constraint(lst: ArrayList, assumptions: str, shared_group: bool):
    """The elements may alias each other and every other array unless the arrays are fresh.
    The list's own storage (the pointers, which the kernel only reads) aliases nothing: cuTile
    does not let list storage share an alias group with arrays."""
    return _cc().ListConstraint(_array_constraint(lst.element, assumptions, shared_group),
                                alias_groups=(),
                                elements_may_alias=assumptions != "fresh_arrays")


def _constant_constraint(value):
    cc = _cc()
    if isinstance(value, tuple):
        return cc.TupleConstraint([_constant_constraint(v) for v in value])
    return cc.ConstantConstraint(value)


def from_kernel_signature(ks, param_names, *, kernel: str | None = None,
                          spec_name: str | None = None):
    """-> (tile2cu Signature, [dropped assumptions as text])."""
    params, dropped = [], []
    names = list(param_names)
    if len(names) != len(ks.parameters):
        raise ValueError(f"the KernelSignature has {len(ks.parameters)} parameters, the kernel "
                         f"{len(names)}")
    for name, c in zip(names, ks.parameters):
        params.append(Param(name, _from_constraint(name, c, dropped)))
    n_arrays = sum(isinstance(p.constraint, (Array, ArrayList)) for p in params)
    if n_arrays < 2:  # alias groups say nothing about a lone array
        dropped = [d for d in dropped if ": alias_groups " not in d]
    return Signature(tuple(params), kernel, spec_name), dropped


def _dtype_name(name: str, dtype) -> str:
    text = str(dtype)
    if text not in DTYPES:
        raise ValueError(f"{name}: dtype {text} has no tile2cu equivalent")
    return text


def _from_constraint(name: str, c, dropped: list):
    cc = _cc()
    if isinstance(c, cc.ArrayConstraint):
        return _from_array(name, c, dropped)
    if isinstance(c, cc.ListConstraint):
        # The list's own alias groups are moot: tile2cu's launcher builds the list's storage
        # (a device table of the arrays) itself, so it never aliases a kernel argument.
        if not c.elements_may_alias:
            dropped.append(f"{name}: elements_may_alias False")
        return ArrayList(_from_array(name, c.element, dropped))
    if isinstance(c, cc.ScalarConstraint):
        return Scalar(_dtype_name(name, c.dtype))
    if isinstance(c, cc.ConstantConstraint):
        return Constant(c.value)
    if isinstance(c, cc.TupleConstraint) and all(
            isinstance(i, (cc.ConstantConstraint, cc.TupleConstraint)) for i in c.items):
        return Constant(_tuple_value(name, c))
    raise ValueError(f"{name}: {type(c).__name__} has no tile2cu equivalent "
                     "(arrays, lists of arrays, scalars and constants only)")


def _tuple_value(name: str, c):
    cc = _cc()
    out = []
    for item in c.items:
        if isinstance(item, cc.ConstantConstraint):
            out.append(item.value)
        elif isinstance(item, cc.TupleConstraint):
            out.append(_tuple_value(name, item))
        else:
            raise ValueError(f"{name}: a tuple of non-constants has no tile2cu equivalent")
    return tuple(out)


def _from_array(name: str, a, dropped: list) -> Array:
    ct = _ct()
    dtype = _dtype_name(name, a.dtype)
    if a.index_dtype != ct.int32:
        raise ValueError(f"{name}: index_dtype {a.index_dtype}: tile2cu kernels index with int32")
    dims = tuple(a.shape_constant) if a.shape_constant else (None,) * a.ndim
    if any(d is not None and d <= 0 for d in dims):
        raise ValueError(f"{name}: static extent {dims}: tile2cu needs positive extents")
    strides = tuple(a.stride_constant) if a.stride_constant else (None,) * a.ndim
    contiguous = a.ndim > 0 and strides[-1] == 1
    kept = strides[:-1] + (None,) if contiguous else strides
    if any(s is not None for s in kept):
        dropped.append(f"{name}: stride_constant {strides}")
    align16 = a.base_addr_divisible_by % ALIGN_BYTES == 0
    if not align16 and a.base_addr_divisible_by > 1:
        dropped.append(f"{name}: base_addr_divisible_by {a.base_addr_divisible_by}")
    if any(x not in (None, 0) for x in a.stride_lower_bound_incl):  # 0: tile2cu too
        dropped.append(f"{name}: stride_lower_bound_incl {a.stride_lower_bound_incl}")
    if any(x != 1 for x in a.stride_divisible_by):
        dropped.append(f"{name}: stride_divisible_by {a.stride_divisible_by}")
    if any(x != 1 for x in a.shape_divisible_by):
        dropped.append(f"{name}: shape_divisible_by {a.shape_divisible_by}")
    if tuple(a.alias_groups) != (SHARED_ALIAS_GROUP,):
        dropped.append(f"{name}: alias_groups {tuple(a.alias_groups)}")
    if not a.may_alias_internally:
        dropped.append(f"{name}: may_alias_internally False")
    return Array(dtype, dims, align16, contiguous)
