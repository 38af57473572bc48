"""tile2cu's signature text (README "Signatures", src/sema/signature.cpp) as Python values.

    [spec_name =] kernel(param=constraint, ...)     or just     param=constraint, ...

    array     dtype[d0, d1, ...] [align16] [contiguous]   each d is ? or a positive integer
    list      list[array]          a Python list of arrays alike (every element meets `array`)
    scalar    dtype
    constant  1024, -3, 0.5, True, (64, 128)

The grammar and the dtype spellings follow the C++ parser; errors are ValueError with the
column. Needs nothing outside the standard library, so tools without cuTile can use it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

# Canonical names (as tile2cu prints them), then every spelling the C++ parser accepts.
DTYPES = ("bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "bfloat16", "float32", "float64", "tfloat32", "float8_e4m3fn", "float8_e5m2")
_SHORT = {"b1": "bool_", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
          "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64", "f16": "float16",
          "bf16": "bfloat16", "f32": "float32", "f64": "float64", "tf32": "tfloat32",
          "f8e4m3": "float8_e4m3fn", "f8e5m2": "float8_e5m2"}
_ALIASES = {"bool": "bool_", "half": "float16", "float": "float32", "double": "float64",
            "short": "int16", "int": "int32", "long": "int64", "b8": "bool_"}
MAX_RANK = 5


def canonical_dtype(name: str) -> str | None:
    if name in DTYPES:
        return name
    return _SHORT.get(name) or _ALIASES.get(name)


ConstantValue = Union[bool, int, float, tuple]


@dataclass(frozen=True)
class Array:
    dtype: str
    dims: tuple  # one entry per dimension: None (dynamic) or a positive int (static)
    align16: bool = False      # base pointer 16-byte aligned
    contiguous: bool = False   # last stride 1

    @property
    def ndim(self) -> int:
        return len(self.dims)


@dataclass(frozen=True)
class Scalar:
    dtype: str


@dataclass(frozen=True)
class Constant:
    value: ConstantValue


@dataclass(frozen=True)
class ArrayList:
    element: Array  # what every element of the list satisfies


Constraint = Union[Array, Scalar, Constant, ArrayList]


@dataclass(frozen=True)
class Param:
    name: str | None  # None: positional
    constraint: Constraint


@dataclass(frozen=True)
class Signature:
    params: tuple
    kernel: str | None = None
    spec_name: str | None = None

    def by_name(self, param_names) -> dict:
        """{parameter name: constraint} in kernel order; positional entries take the names in
        order. Raises ValueError for a missing, unknown or repeated parameter."""
        names = list(param_names)
        out = {}
        for i, p in enumerate(self.params):
            name = p.name if p.name is not None else (names[i] if i < len(names) else None)
            if name is None or name not in names:
                raise ValueError(f"constraint {format_param(p)!r} names no parameter of "
                                 f"({', '.join(names)})")
            if name in out:
                raise ValueError(f"parameter {name!r} is constrained twice")
            out[name] = p.constraint
        missing = [n for n in names if n not in out]
        if missing:
            raise ValueError(f"no constraint for parameter(s) {', '.join(missing)}")
        return {n: out[n] for n in names}


# ------------------------------------------------------------------------------------------------
# Parsing
# ------------------------------------------------------------------------------------------------

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)")


class _Parser:
    def __init__(self, text: str):
        self.text, self.pos = text, 0
        self.seen_named = False

    def error(self, what: str):
        raise ValueError(f"column {self.pos + 1}: {what} in {self.text.strip()!r}")

    def space(self):
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.space()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def ident(self) -> str:
        self.space()
        m = _IDENT.match(self.text, self.pos)
        if not m:
            return ""
        self.pos = m.end()
        return m.group()

    def expect(self, ch: str):
        if self.peek() != ch:
            self.error(f"expected {ch!r}")
        self.pos += 1

    def signature(self) -> Signature:
        save = self.pos
        first = self.ident()
        spec = kernel = None
        if first and self.peek() == "=" and self.text[self.pos:self.pos + 2] != "==":
            self.pos += 1
            second = self.ident()
            if second and self.peek() == "(":
                spec, kernel = first, second
            else:
                self.pos = save
        elif first and self.peek() == "(":
            kernel = first
        else:
            self.pos = save
        if kernel is not None:
            self.expect("(")
            params = self.params(")")
        else:
            params = self.params("")
        if self.peek():
            self.error("unexpected text after the signature")
        return Signature(tuple(params), kernel, spec)

    def params(self, close: str) -> list:
        out = []
        if close and self.peek() == close:
            self.pos += 1
            return out
        while True:
            out.append(self.param())
            if self.peek() == ",":
                self.pos += 1
                if close and self.peek() == close:
                    break
                continue
            break
        if close:
            self.expect(close)
        return out

    def param(self) -> Param:
        save = self.pos
        name = self.ident()
        if name and self.peek() == "=":
            self.pos += 1
            self.seen_named = True
            return Param(name, self.constraint())
        self.pos = save
        if self.seen_named:
            self.error("a positional constraint cannot follow a named one")
        return Param(None, self.constraint())

    def constraint(self) -> Constraint:
        c = self.peek()
        if c in "(-+." or c.isdigit():
            return Constant(self.literal())
        start = self.pos
        word = self.ident()
        if not word:
            self.error("expected a dtype, an array type such as float32[?], or a constant")
        if word in ("True", "False"):
            return Constant(word == "True")
        if word == "list":
            self.expect("[")
            at = self.pos
            element = self.constraint()
            if not isinstance(element, Array):
                self.pos = at
                self.error("a list holds arrays: write list[dtype[dims]], e.g. "
                           "list[float32[?, ?]]")
            self.expect("]")
            return ArrayList(element)
        dtype = canonical_dtype(word)
        if dtype is None:
            self.pos = start
            self.error(f"unknown dtype {word!r}")
        if self.peek() != "[":
            return Scalar(dtype)
        self.pos += 1
        dims = []
        while self.peek() != "]":
            if self.peek() == "?":
                self.pos += 1
                dims.append(None)
            else:
                m = re.compile(r"\d+").match(self.text, self.pos)
                if not m or int(m.group()) <= 0:
                    self.error("an array dimension is ? or a positive integer")
                self.pos = m.end()
                dims.append(int(m.group()))
            if self.peek() == ",":
                self.pos += 1
            elif self.peek() != "]":
                self.error("expected ',' or ']'")
        self.pos += 1
        if len(dims) > MAX_RANK:
            self.error(f"arrays of rank above {MAX_RANK} are not supported")
        flags = set()
        while True:
            save = self.pos
            flag = self.ident()
            if flag in ("align16", "contiguous"):
                flags.add(flag)
            else:
                self.pos = save
                break
        return Array(dtype, tuple(dims), "align16" in flags, "contiguous" in flags)

    def literal(self) -> ConstantValue:
        if self.peek() == "(":
            self.pos += 1
            items = []
            while self.peek() != ")":
                items.append(self.literal())
                if self.peek() == ",":
                    self.pos += 1
                elif self.peek() != ")":
                    self.error("expected ',' or ')'")
            self.pos += 1
            return tuple(items)
        word = self.ident()
        if word in ("True", "False"):
            return word == "True"
        if word:
            self.error("expected a number, True, False or a tuple")
        m = _NUMBER.match(self.text, self.pos)
        if not m:
            self.error("expected a number")
        self.pos = m.end()
        s = m.group()
        return float(s) if any(ch in s for ch in ".eE") else int(s)


def parse_signature(text: str) -> Signature:
    return _Parser(text).signature()


def parse_sidecar(contents: str) -> list:
    """[(line number, Signature)] of a .sigs file; '#' starts a comment."""
    out = []
    for no, line in enumerate(contents.splitlines(), 1):
        line = line.split("#", 1)[0]
        if line.strip():
            try:
                out.append((no, parse_signature(line)))
            except ValueError as e:
                raise ValueError(f"line {no}: {e}") from None
    return out


# ------------------------------------------------------------------------------------------------
# Formatting (the same text tile2cu prints)
# ------------------------------------------------------------------------------------------------

def format_constant(v: ConstantValue) -> str:
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, tuple):
        items = [format_constant(x) for x in v]
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    if isinstance(v, float):
        return repr(v)  # keeps a ".0", round-trips exactly
    return str(v)


def format_constraint(c: Constraint) -> str:
    if isinstance(c, Array):
        dims = ", ".join("?" if d is None else str(d) for d in c.dims)
        return (f"{c.dtype}[{dims}]" + (" align16" if c.align16 else "")
                + (" contiguous" if c.contiguous else ""))
    if isinstance(c, ArrayList):
        return f"list[{format_constraint(c.element)}]"
    if isinstance(c, Scalar):
        return c.dtype
    return format_constant(c.value)


def format_param(p: Param) -> str:
    body = format_constraint(p.constraint)
    return body if p.name is None else f"{p.name}={body}"


def format_signature(sig: Signature) -> str:
    body = ", ".join(format_param(p) for p in sig.params)
    if sig.kernel is None:
        return body
    line = f"{sig.kernel}({body})"
    return f"{sig.spec_name} = {line}" if sig.spec_name else line
