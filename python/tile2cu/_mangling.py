"""cuTile's kernel symbol for a signature: `<function>_K<convention code>` and one `_<code>` per
parameter, so a kernel exported without an explicit symbol is named as cuTile names it.

Parameter codes: `S<dtype>` scalar; `B0`/`B1`, `I<int>`, `F<16 hex digits of the double>`
constants; `T<count><items>` tuple; `L[g<id>...][i]<array>` list (its storage's alias groups,
elements may alias); `A<ndim><dtype>` array, then per axis mask (hex, ascending) the facts that
hold on exactly those axes (`s` extent, `i` extent divisor, `t` stride, `v` stride divisor,
`l` stride lower bound, each followed by its value), then `_` and the extras: `p<n>` base
divisor, `g<id>` alias groups, `i` may alias internally, `u`/`w` uint32/int64 indices.
Negative numbers are written `_<magnitude>`; alias groups are numbered by first mention.
demangle_kernel_name reads a symbol back. Both were checked against cuTile 1.7's on the same
signatures and symbols (tests/python/test_compilation.py keeps those cases).
"""

from __future__ import annotations

import re
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


# ---- reading a symbol back ---------------------------------------------------------------------

def demangle_kernel_name(symbol: str) -> tuple[str, cc.KernelSignature]:
    """(function name, signature) of a mangled symbol; alias groups come back as `group<id>`.
    A symbol that does not follow the grammar, or states a fact twice, raises ValueError."""
    cut = symbol.rfind("_K")
    if cut < 0:
        raise ValueError(f"`{symbol}` is not a mangled kernel name")
    r = _Reader(symbol, cut + 2)
    cconv = cc.CallingConvention.from_code(r.need(r"[^_]+", "a calling convention code"))
    groups = _GroupIds()
    params = []
    while not r.done():
        r.need("_", "an underscore before the next parameter")
        params.append(_read_param(r, groups))
    return symbol[:cut], cc.KernelSignature(params, cconv, symbol)


class _Reader:
    def __init__(self, text, pos):
        self.text, self.pos = text, pos

    def done(self):
        return self.pos == len(self.text)

    def take(self, pattern):
        m = re.compile(pattern).match(self.text, self.pos)
        if m is None:
            return None
        self.pos = m.end()
        return m.group(0)

    def need(self, pattern, what):
        got = self.take(pattern)
        if got is None:
            raise self.error(f"expected {what}")
        return got

    def error(self, message):
        return ValueError(f"Invalid mangled name '{self.text}' at offset {self.pos} (near "
                          f"'{self.text[self.pos:self.pos + 20]}'): {message}")

    def signed(self):
        negative = self.take("_") is not None
        value = int(self.need("[0-9]+", "a decimal integer"))
        return -value if negative else value

    def factor(self):
        at = self.pos
        value = self.signed()
        if value <= 1:
            self.pos = at
            raise self.error("a divisibility must be greater than 1")
        return value


class _GroupIds:
    """Alias group ids must be numbered by first mention and listed in increasing order."""

    def __init__(self):
        self.seen = -1

    def read(self, r):
        names, previous = [], -1
        while r.take("g") is not None:
            text = r.need("[0-9a-f]+", "a hex alias group id")
            gid = int(text, 16)
            if (len(text) > 1 and text[0] == "0") or gid > self.seen + 1 or gid <= previous:
                raise r.error(f"alias group id {text} out of order")
            self.seen, previous = max(self.seen, gid), gid
            names.append(f"group{gid}")
        return names


_DTYPE_BY_CODE = {code: d for d, code in DTYPE_CODES.items()}


def _read_dtype(r):
    code = r.need("[a-z0-9]+", "a dtype code")
    if code not in _DTYPE_BY_CODE:
        raise r.error(f"unknown dtype code '{code}'")
    return _DTYPE_BY_CODE[code]


def _read_param(r, groups):
    code = r.need("[A-Z]", "a constraint code (a capital letter)")
    if code == "A":
        return _read_array(r, groups)
    if code == "L":
        storage = groups.read(r)
        may_alias = r.take("i") is not None
        r.need("A", "the list's array constraint")
        return cc.ListConstraint(_read_array(r, groups), alias_groups=storage,
                                 elements_may_alias=may_alias)
    if code == "T":
        count = int(r.need("[0-9]+", "a tuple length"))
        return cc.TupleConstraint([_read_param(r, groups) for _ in range(count)])
    if code == "S":
        return cc.ScalarConstraint(_read_dtype(r))
    if code == "B":
        return cc.ConstantConstraint(r.need("[01]", "0 or 1") == "1")
    if code == "I":
        return cc.ConstantConstraint(r.signed())
    if code == "F":
        return cc.ConstantConstraint(struct.unpack(">d", bytes.fromhex(
            r.need("[0-9a-f]{16}", "16 hex digits")))[0])
    r.pos -= 1
    raise r.error(f"unknown constraint code '{code}'")


# Per-axis facts in the order a mask's group lists them: letter, field, value reader.
_FACTS = (("s", "shape_constant", _Reader.signed), ("i", "shape_divisible_by", _Reader.factor),
          ("t", "stride_constant", _Reader.signed), ("v", "stride_divisible_by", _Reader.factor),
          ("l", "stride_lower_bound_incl", _Reader.signed))
_UNSET = {"shape_constant": None, "shape_divisible_by": 1, "stride_constant": None,
          "stride_divisible_by": 1, "stride_lower_bound_incl": None}


def _read_array(r, groups):
    ndim = int(r.need("[0-9]+", "the array's rank"))
    dtype = _read_dtype(r)
    fields = {name: [unset] * ndim for name, unset in _UNSET.items()}
    while r.take("_(?=[0-9a-f])") is not None:
        mask = int(r.need("[0-9a-f]+", "an axis mask"), 16)
        if mask == 0 or mask.bit_length() > ndim:
            raise r.error(f"axis mask {mask:x} is empty or beyond rank {ndim}")
        for letter, name, read in _FACTS:
            if r.take(letter) is None:
                continue
            value = read(r)
            for axis in range(ndim):
                if mask >> axis & 1:
                    if fields[name][axis] != _UNSET[name]:
                        raise r.error(f"{name} given twice for axis {axis}")
                    fields[name][axis] = value
    for axis, known in enumerate(fields["stride_constant"]):
        if known is not None and (fields["stride_divisible_by"][axis] != 1
                                  or fields["stride_lower_bound_incl"][axis] is not None):
            raise r.error(f"axis {axis} has a static stride and another stride fact")
    base, aliases, internal, index = 1, [], False, dt.int32
    if r.take("_(?=[a-z])") is not None:
        if r.take("p") is not None:
            base = r.factor()
        aliases = groups.read(r)
        internal = r.take("i") is not None
        index = {"u": dt.uint32, "w": dt.int64, None: dt.int32}[r.take("[uw]")]
    return cc.ArrayConstraint(dtype, ndim, index_dtype=index, alias_groups=aliases,
                              may_alias_internally=internal, base_addr_divisible_by=base,
                              **{name: tuple(values) for name, values in fields.items()})
