"""cuTile's kernel symbol for a signature: `<function>_K<convention code>` and one `_<code>` per
parameter, so a kernel exported without an explicit symbol is named as cuTile names it.

Parameter codes: `S<dtype>` scalar; `B0`/`B1`, `I<int>`, `F<16 hex digits of the double>`
constants; `T<count><items>` tuple; `L[g<id>...][i]<array>` list (its storage's alias groups,
elements may alias); `A<ndim><dtype>` array, then per axis mask (hex, ascending) the facts that
hold on exactly those axes (`s` extent, `i` extent divisor, `t` stride, `v` stride divisor,
`l` stride lower bound, each followed by its value), then `_` and the extras: `p<n>` base
divisor, `g<id>` alias groups, `i` may alias internally, `u`/`w` uint32/int64 indices.
Negative numbers are written `_<magnitude>`; alias groups are numbered by first mention.
"""

from __future__ import annotations

import struct

from . import _constraints as cc
from . import _dtypes as dt

DTYPE_CODES = {dt.bool_: "b8", dt.uint8: "u8", dt.uint16: "u16", dt.uint32: "u32",
               dt.uint64: "u64", dt.int8: "i8", dt.int16: "i16", dt.int32: "i32",
               dt.int64: "i64", dt.float16: "f16", dt.float32: "f32", dt.float64: "f64",
               dt.bfloat16: "bf16", dt.tfloat32: "tf32", dt.float8_e4m3fn: "f8m3fn",
               dt.float8_e5m2: "f8m2", dt.float8_e8m0fnu: "f8m0fnu"}


def mangle_kernel_name(function_name: str, signature: cc.KernelSignature) -> str:
    group_ids: dict[str, int] = {}
    for _, groups in cc.alias_group_uses(signature.parameters):
        for g in groups:
            group_ids.setdefault(g, len(group_ids))
    parts = [f"{function_name}_K{signature.calling_convention.code}"]
    parts += [_param(p, group_ids) for p in signature.parameters]
    return "_".join(parts)


def _int(v: int) -> str:
    return f"_{-v}" if v < 0 else str(v)


def _dtype(d) -> str:
    code = DTYPE_CODES.get(d)
    if code is None:
        raise ValueError(f"Unexpected dtype {d}")
    return code


def _groups(groups, group_ids) -> str:
    return "".join(f"g{i:x}" for i in sorted(group_ids[g] for g in groups))


def _param(p, group_ids) -> str:
    if isinstance(p, cc.ArrayConstraint):
        return "A" + _array(p, group_ids)
    if isinstance(p, cc.ListConstraint):
        return ("L" + _groups(p.alias_groups, group_ids) + ("i" if p.elements_may_alias else "")
                + _param(p.element, group_ids))
    if isinstance(p, cc.TupleConstraint):
        return f"T{len(p.items)}" + "".join(_param(i, group_ids) for i in p.items)
    if isinstance(p, cc.ScalarConstraint):
        return "S" + _dtype(p.dtype)
    if isinstance(p, cc.ConstantConstraint):
        v = p.value
        if type(v) is bool:
            return f"B{int(v)}"
        if type(v) is int:
            return "I" + _int(v)
        return "F" + struct.pack(">d", v).hex()
    raise TypeError(f"Unexpected constraint type: {type(p)}")


def _array(a: cc.ArrayConstraint, group_ids) -> str:
    # Each fact ("t1": stride 1) with the mask of the axes it holds on, in the order first met.
    masks: dict[str, int] = {}
    for letter, values, default in (("s", a.shape_constant, None), ("i", a.shape_divisible_by, 1),
                                    ("t", a.stride_constant, None),
                                    ("v", a.stride_divisible_by, 1),
                                    ("l", a.stride_lower_bound_incl, None)):
        for axis, v in enumerate(values):
            if v != default:
                fact = letter + _int(v)
                masks[fact] = masks.get(fact, 0) | 1 << axis
    by_mask: dict[int, str] = {}
    for fact, mask in masks.items():
        by_mask[mask] = by_mask.get(mask, "") + fact
    text = f"{a.ndim}{_dtype(a.dtype)}" + "".join(f"_{m:x}{by_mask[m]}" for m in sorted(by_mask))
    extras = (f"p{_int(a.base_addr_divisible_by)}" if a.base_addr_divisible_by != 1 else "")
    extras += _groups(a.alias_groups, group_ids) + ("i" if a.may_alias_internally else "")
    extras += {dt.uint32: "u", dt.int64: "w"}.get(a.index_dtype, "")
    return text + ("_" + extras if extras else "")
