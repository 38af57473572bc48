"""cuTile's dtypes and the typing rules the generator needs (cutile-language.md b.4-b.7, c.4-c.11).

Every rule here is the spec's; the generator only builds expressions these functions accept, so a
generated program is well-typed by construction."""

BOOL = "bool_"
SIGNED = ("int8", "int16", "int32", "int64")
UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
FLOATS = ("float16", "bfloat16", "float32", "float64")
RESTRICTED = ("float8_e4m3fn", "float8_e5m2")
INTEGERS = SIGNED + UNSIGNED
ARITHMETIC = INTEGERS + FLOATS
ALL = (BOOL,) + ARITHMETIC + RESTRICTED

BITS = {BOOL: 8, "int8": 8, "int16": 16, "int32": 32, "int64": 64, "uint8": 8, "uint16": 16,
        "uint32": 32, "uint64": 64, "float16": 16, "bfloat16": 16, "float32": 32, "float64": 64,
        "float8_e4m3fn": 8, "float8_e5m2": 8}

# mma (c.11): operand dtype -> allowed accumulator dtypes. tfloat32 operands come from astype.
MMA_ACC = {
    "float16": ("float16", "float32"),
    "bfloat16": ("float32",),
    "float32": ("float32",),
    "tfloat32": ("float32",),
    "float64": ("float64",),
    "float8_e4m3fn": ("float16", "float32"),
    "float8_e5m2": ("float16", "float32"),
    "int8": ("int32",),
    "uint8": ("int32",),
}


def category(dtype):
    """0 bool < 1 integer < 2 float (restricted floats count as float)."""
    if dtype == BOOL:
        return 0
    return 1 if dtype in INTEGERS else 2


def is_float(dtype):
    return dtype in FLOATS


def is_int(dtype):
    return dtype in INTEGERS


def promote(a, b):
    """The promotion table of b.5 for two typed operands; None where cuTile refuses."""
    if a == b:
        return a
    if a in RESTRICTED or b in RESTRICTED:
        return None
    if a == BOOL:
        return b
    if b == BOOL:
        return a
    if is_int(a) and is_int(b):
        if (a in SIGNED) != (b in SIGNED):
            return None
        return a if BITS[a] >= BITS[b] else b
    if is_float(a) and is_float(b):
        if "float64" in (a, b):
            return "float64"
        if {a, b} == {"float16", "bfloat16"}:
            return None
        return "float32"
    return a if is_float(a) else b  # integer with float: the float wins, whatever its width


def literal_dtype(kind):
    """What a loose literal becomes when it meets a typed operand of another category (b.3)."""
    return {"bool": BOOL, "int": "int32", "float": "float32"}[kind]


def promote_with_literal(dtype, kind):
    """A typed operand against a loose literal of `kind` ('int', 'float', 'bool') (b.5 rules 3-4)."""
    lit_cat = {"bool": 0, "int": 1, "float": 2}[kind]
    if lit_cat <= category(dtype):
        return dtype
    return literal_dtype(kind)


def int_range(dtype):
    bits = BITS[dtype]
    if dtype in UNSIGNED:
        return 0, 2 ** bits - 1
    return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1


def lossless_into(src, dst):
    """Whether a store / scatter may cast src into dst implicitly (b.6)."""
    return promote(src, dst) == dst


def reduced(dtype):
    """Result dtype of a reduction or scan: the input's, bool as int32 (c.8)."""
    return "int32" if dtype == BOOL else dtype


def math_result(dtype):
    """Unary transcendental ops convert bool/int to float32 (b.5)."""
    return dtype if is_float(dtype) else "float32"
