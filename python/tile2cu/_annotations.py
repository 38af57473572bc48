"""Parameter annotations (`ct.Constant[int]`, `ct.ScalarInt64`, ...) and how the launcher reads
them: each kernel parameter is a Constant (its value is compiled in), a 64-bit scalar, an array
with annotation facts, or a plain run-time argument whose kind comes from the value passed."""

from __future__ import annotations

import inspect
import typing
from typing import Annotated

from . import _dtypes


class ConstantAnnotation:
    """Metadata marking a parameter as a compile-time constant (inside `typing.Annotated`)."""

    def __repr__(self) -> str:
        return "ConstantAnnotation()"


class ArrayAnnotation:
    """Array facts chosen at launch: `static_shape_dims` become compile-time dims of the
    signature; `index_dtype=ct.int64` asks for 64-bit shapes and strides."""

    def __init__(self, *, static_shape_dims=(), static_stride_dims=(), index_dtype=None):
        if index_dtype is not None and _dtypes.from_foreign(index_dtype) not in (_dtypes.int32,
                                                                                 _dtypes.int64):
            raise ValueError(f"`index_dtype` must be int32 or int64, got {index_dtype}")
        # Checked here, as cuTile does, so a bad annotation fails where the kernel is written.
        for field, dims in (("static_shape_dims", static_shape_dims),
                            ("static_stride_dims", static_stride_dims)):
            if not isinstance(dims, tuple):
                raise TypeError(f"`{field}` must be a tuple of integers")
            for i, dim in enumerate(dims):
                if isinstance(dim, bool) or not isinstance(dim, int):
                    raise TypeError(f"Element #{i} of `{field}` must be int, got {dim}")
        self.static_shape_dims = static_shape_dims
        self.static_stride_dims = static_stride_dims
        self.index_dtype = index_dtype

    def __repr__(self) -> str:
        return (f"ArrayAnnotation(static_shape_dims={self.static_shape_dims}, "
                f"static_stride_dims={self.static_stride_dims}, index_dtype={self.index_dtype})")


class ScalarAnnotation:
    def __init__(self, dtype):
        self.dtype = dtype

    def __repr__(self) -> str:
        return f"ScalarAnnotation({self.dtype!r})"


class ListAnnotation:
    def __init__(self, element=None):
        self.element = element


class Array:
    """Type of array parameters in annotations (`x: ct.Array`); host code never builds one."""


class Tile:
    """Type of tiles in annotations; tiles exist only inside kernels."""


class Scalar:
    """Type of scalar parameters in annotations."""


class TiledView:
    """Type of tiled views in annotations; they exist only inside kernels."""


class _ConstantMeta(type):
    def __getitem__(cls, item):
        return Annotated[item, ConstantAnnotation()]


class Constant(metaclass=_ConstantMeta):
    """`x: ct.Constant` or `x: ct.Constant[int]`: the argument's value is compiled into the
    kernel (one specialization per distinct value)."""


ScalarInt64 = Annotated[Scalar, ScalarAnnotation(_dtypes.int64)]
IndexedWithInt64 = Annotated[Array, ArrayAnnotation(index_dtype=_dtypes.int64)]


class ParamInfo:
    """What a kernel parameter's annotation says about it."""

    __slots__ = ("name", "constant", "scalar_dtype", "array_annotation", "list_annotation",
                 "items", "constant_with_scalar")

    def __init__(self, name):
        self.name = name
        self.constant = False
        self.scalar_dtype = None       # from ScalarAnnotation (ct.ScalarInt64)
        self.array_annotation = None   # ArrayAnnotation
        self.list_annotation = None    # ListAnnotation
        self.items = None              # `tuple[A, B]`: a ParamInfo per item (same name)
        # ct.Constant[tuple[ct.ScalarInt64, int]]: cuTile refuses it at launch (a constant has
        # no run-time dtype to choose), so the launcher does too.
        self.constant_with_scalar = False


def _metadata(annotation):
    """The Annotated metadata of `annotation`, also for ct.Constant itself."""
    if annotation is Constant:
        return (ConstantAnnotation(),)
    if typing.get_origin(annotation) is Annotated:
        return getattr(annotation, "__metadata__", ())
    return ()


def _resolve(annotation, globals_):
    # `from __future__ import annotations` leaves strings; evaluate them like cuTile does
    # (names the kernel's module defines). One that does not resolve is not a marker.
    if isinstance(annotation, str):
        try:
            return eval(annotation, dict(globals_))  # noqa: S307 - the user's own module
        except Exception:
            return None
    return annotation


def parameter_infos(fn) -> tuple[list[ParamInfo], str | None]:
    """Per parameter of `fn`, what its annotation says; and the name of a variadic parameter
    (kernels cannot have them) or None."""
    infos, variadic = [], None
    for p in inspect.signature(fn).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            variadic = variadic or p.name
            continue
        ann = _resolve(p.annotation, fn.__globals__) if p.annotation is not p.empty else None
        infos.append(_info(p.name, ann))
    return infos, variadic


MAX_TUPLE_ANNOTATION_DEPTH = 16


def _info(name, ann, depth=0):
    """What annotation `ann` says; a `tuple[A, B]` (fixed length) also per item."""
    info = ParamInfo(name)
    for meta in _metadata(ann):
        if isinstance(meta, ConstantAnnotation):
            info.constant = True
        elif isinstance(meta, ScalarAnnotation):
            info.scalar_dtype = _dtypes.from_foreign(meta.dtype)
        elif isinstance(meta, ArrayAnnotation) and depth == 0:
            # Not read inside tuples (as before items were read at all): an item's
            # IndexedWithInt64 would refuse arrays that int32 indexing serves, and its static
            # dims have no place in the signature's tuples.
            info.array_annotation = meta
        elif isinstance(meta, ListAnnotation):
            info.list_annotation = meta
    if typing.get_origin(ann) is Annotated:
        ann = typing.get_args(ann)[0]
    if info.constant:
        info.constant_with_scalar = _holds_scalar_annotation(ann, depth)
    elif typing.get_origin(ann) is tuple and depth < MAX_TUPLE_ANNOTATION_DEPTH:
        items = typing.get_args(ann)
        if Ellipsis not in items and items != ((),):   # tuple[int, ...] has no fixed length
            info.items = tuple(_info(name, item, depth + 1) for item in items)
    return info


def _holds_scalar_annotation(ann, depth):
    if depth > MAX_TUPLE_ANNOTATION_DEPTH:
        return False
    if any(isinstance(meta, ScalarAnnotation) for meta in _metadata(ann)):
        return True
    return any(_holds_scalar_annotation(item, depth + 1) for item in typing.get_args(ann)
               if item is not Ellipsis)
