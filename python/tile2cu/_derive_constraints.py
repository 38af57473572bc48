"""`KernelSignature.from_kernel_args`: the constraints a launch with these arguments compiles.

The arguments are read and checked by the launcher's own code (_kernel, _args): the same
readers, the same Constant and scalar rules, the same array facts (aligned base, unit last
stride, the axes an ArrayAnnotation makes static), so an argument the launcher refuses is
refused here with the same exception. What a signature states beyond the launcher's key is
what cuTile's inference states and the arguments prove: the element divisibility of strides,
whether an array overlaps itself or another, and (calling convention 2) extents of 1.
"""

from __future__ import annotations

from . import _args, _constraints as cc, _errors, _kernel
from ._args import ARRAY, BOOL, FLOAT, INT, LIST, TUPLE, ArgError
from ._dtypes import int32   # tile2cu indexes arrays with int32 (the launcher refuses int64)

ALIGN_BYTES = 16


def from_args(k, args, cconv: cc.CallingConvention) -> list:
    if type(k) is not _kernel.kernel:
        raise TypeError(f"Expected a @ct.kernel, got {type(k).__name__}")
    if k._variadic:
        raise _errors.TileSyntaxError(
            f"kernel '{k._pyfunc.__name__}' has a variadic parameter '{k._variadic}': kernel "
            "parameters cannot be *args or **kwargs")
    args = tuple(args)
    if len(args) != len(k._params):
        raise TypeError(_kernel._argument_count_message(len(k._params), len(args)))
    spans = []   # per array or list argument, in order, the byte ranges it touches
    out = []
    try:
        for i, (info, value) in enumerate(zip(k._params, args)):
            if info.constant:
                if info.constant_with_scalar:
                    raise ArgError(TypeError, f"{_kernel._where(i, info)}: Constant "
                                              "annotation cannot be combined with "
                                              "ScalarAnnotation/ScalarInt64")
                out.append(_constant(_kernel._const_key(value, _kernel._where(i, info), i)))
            else:
                out.append(_runtime(value, info, i, cconv, spans))
    except ArgError as e:
        raise e.kind(str(e)) from None
    groups = _alias_groups(spans)
    next_array = iter(range(len(spans)))   # resolved in the order they were read
    return [_resolve(c, groups, next_array) for c in out]


def _constant(key):
    t, v = key
    if t is tuple:
        return cc.TupleConstraint([_constant(item) for item in v])
    return cc.ConstantConstraint(v)


def _runtime(value, info, i, cconv, spans):
    """A constraint, or for arrays and lists a function of the alias groups (known once every
    argument has been read)."""
    kind, reader = _args.kind_of(value)
    where = _kernel._where(i, info)
    if kind == ARRAY:
        try:
            dtype, shape, strides, ptr = reader(value)
        except ArgError as e:
            raise ArgError(e.kind, f"{where}: {e}") from None
        return _array(dtype, shape, strides, ptr, info.array_annotation, where, cconv, spans)
    if kind in (INT, BOOL, FLOAT):
        return cc.ScalarConstraint(_kernel._scalar_dtype(kind, info, value, i))
    if kind == LIST:
        list_key, _ = _kernel._list_arg(value, info, i)   # checks the items as a launch does
        items = [_args.kind_of(a)[1](a) for a in value]
        ranges = [_byte_range(shape, strides, ptr, dtype.itemsize)
                  for dtype, shape, strides, ptr in items]
        spans.append(ranges)
        may_alias = any(_intersect(a, b) for n, a in enumerate(ranges) for b in ranges[n + 1:])

        def build(groups):
            # The groups are the elements' (their memory); the list's storage is the table
            # tile2cu's launcher builds, which aliases nothing.
            return cc.ListConstraint(_list_element(list_key, items, groups), alias_groups=(),
                                     elements_may_alias=may_alias)
        return build
    if kind == TUPLE:
        if not value:
            raise ArgError(TypeError, f"{where}: an empty tuple holds nothing to pass")
        if info.items is not None and len(info.items) != len(value):
            raise ArgError(TypeError, f"{where}: Received a tuple of length {len(value)} for a "
                                      "parameter annotated as a tuple of length "
                                      f"{len(info.items)}")
        return ("tuple", [_runtime(item, info if info.items is None else info.items[n], i,
                                   cconv, spans) for n, item in enumerate(value)])
    what = "None" if value is None else f"an object of type {type(value).__name__}"
    raise ArgError(TypeError, f"{where}: {what} is not an array (DLPack or "
                              "__cuda_array_interface__), bool, int, float, list of arrays or "
                              "tuple of those")


def _array(dtype, shape, strides, ptr, annotation, where, cconv, spans):
    aligned, contiguous, static = _kernel._array_facts(dtype, shape, strides, ptr, annotation,
                                                       where)
    static_dims, static_strides = static or ((None,) * len(shape), ())
    if cconv.version >= 2 and not (annotation is not None and annotation.static_shape_dims):
        # An extent of 1 is a fact the kernel may fold (cuTile infers it under convention 2,
        # unless the parameter names its static axes itself).
        static_dims = tuple(1 if n == 1 else d for n, d in zip(shape, static_dims))
    if static_strides:
        stride_constant = static_strides
    elif contiguous:
        stride_constant = (None,) * (len(shape) - 1) + (1,)
    else:
        stride_constant = None
    itemsize = dtype.itemsize
    stride_divisible_by = tuple(
        ALIGN_BYTES // itemsize if itemsize <= ALIGN_BYTES and s * itemsize % ALIGN_BYTES == 0
        and (stride_constant is None or stride_constant[k] is None) else 1
        for k, s in enumerate(strides))
    overlaps_itself = _overlaps_itself(shape, strides)
    spans.append([_byte_range(shape, strides, ptr, itemsize)])

    def build(groups):
        return cc.ArrayConstraint(
            dtype, len(shape), index_dtype=int32, stride_lower_bound_incl=0,
            alias_groups=groups, may_alias_internally=overlaps_itself,
            stride_constant=stride_constant,
            shape_constant=static_dims if any(d is not None for d in static_dims) else None,
            stride_divisible_by=stride_divisible_by,
            base_addr_divisible_by=ALIGN_BYTES if aligned else 1)
    return build


def _list_element(list_key, items, groups):
    _, dtype, rank, aligned, contiguous, static = list_key
    static_dims, static_strides = static or ((None,) * rank, ())
    if static_strides:   # the list's ArrayAnnotation, which every item meets
        stride_constant = static_strides
    else:
        stride_constant = (None,) * (rank - 1) + (1,) if contiguous and rank else None
    return cc.ArrayConstraint(
        dtype, rank, index_dtype=int32, stride_lower_bound_incl=0, alias_groups=groups,
        may_alias_internally=any(_overlaps_itself(shape, strides)
                                 for _, shape, strides, _ in items),
        stride_constant=stride_constant,
        shape_constant=static_dims if any(d is not None for d in static_dims) else None,
        base_addr_divisible_by=ALIGN_BYTES if aligned else 1)


def _overlaps_itself(shape, strides) -> bool:
    """Whether two in-bounds indices can reach one element: some axis of extent > 1 steps by
    less than everything inside it spans (stride 0, or overlapping views)."""
    axes = sorted((s, n) for n, s in zip(shape, strides) if n > 1)
    reach = 1   # elements spanned by the smaller-stride axes, plus one
    for s, n in axes:
        if s < reach:
            return True
        reach = s * (n - 1) + reach
    return False


def _byte_range(shape, strides, ptr, itemsize):
    if any(n == 0 for n in shape):
        return None   # an empty array touches no memory
    last = sum((n - 1) * s for n, s in zip(shape, strides))
    return (ptr, ptr + (last + 1) * itemsize)


def _intersect(a, b) -> bool:
    return a is not None and b is not None and a[0] < b[1] and b[0] < a[1]


def _alias_groups(spans):
    """Per array or list argument, its alias groups: one group per pair of arguments whose
    bytes overlap, so that exactly the overlapping pairs may alias."""
    groups = [[] for _ in spans]
    for a in range(len(spans)):
        for b in range(a + 1, len(spans)):
            if any(_intersect(x, y) for x in spans[a] for y in spans[b]):
                name = f"overlap_{a}_{b}"
                groups[a].append(name)
                groups[b].append(name)
    return [tuple(g) for g in groups]


def _resolve(c, groups, counter):
    if callable(c):
        return c(groups[next(counter)])
    if isinstance(c, tuple) and c and c[0] == "tuple":
        return cc.TupleConstraint([_resolve(item, groups, counter) for item in c[1]])
    return c
