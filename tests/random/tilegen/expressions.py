"""Element-wise expressions: which operator and operand dtypes cuTile accepts, and their result.

Operands are typed values or loose Python literals (b.3: a literal takes the typed side's dtype
when their categories agree, else int32 / float32). `result_dtype` answers None for every
combination the spec rejects, and the generator never emits those."""
from . import dtypes as dt

ARITH = ("+", "-", "*", "/", "//", "%", "**")
BITWISE = ("&", "|", "^")
SHIFTS = ("<<", ">>")
COMPARE = ("<", "<=", ">", ">=", "==", "!=")
MINMAX = ("min", "max")
# Function-only binary ops: atan2 (a float result; two integers cuTile cannot lower) and cdiv
# (integers, ceiling division; divisors positive literals, where its two lowerings agree, c.1).
FUNCTIONS = ("atan2", "cdiv")
BINARY = ARITH + BITWISE + SHIFTS + COMPARE + MINMAX + FUNCTIONS

# The explicit ct.* spellings of some operators (c.4): the same op, another path through sema.
EXPLICIT = {"+": "ct.add", "-": "ct.sub", "*": "ct.mul", "/": "ct.truediv", "//": "ct.floordiv",
            "%": "ct.mod", "**": "ct.pow", "&": "ct.bitwise_and", "|": "ct.bitwise_or",
            "^": "ct.bitwise_xor", "<<": "ct.bitwise_lshift", ">>": "ct.bitwise_rshift",
            "<": "ct.less", "<=": "ct.less_equal", ">": "ct.greater", ">=": "ct.greater_equal",
            "==": "ct.equal", "!=": "ct.not_equal", "min": "ct.minimum", "max": "ct.maximum"}

# Rounding modes each op accepts on unrestricted floats (c.15); FULL / APPROX on float32 only.
ROUNDING = {"+": ("RN", "RZ", "RM", "RP"), "-": ("RN", "RZ", "RM", "RP"), "*": ("RN", "RZ", "RM", "RP"),
            "/": ("RN", "RZ", "RM", "RP", "FULL", "APPROX"), "sum": ("RN", "RZ", "RM", "RP"),
            "prod": ("RN", "RZ", "RM", "RP"), "cumsum": ("RN", "RZ", "RM", "RP"),
            "cumprod": ("RN", "RZ", "RM", "RP")}

MATH = ("exp", "log", "sin", "cos", "tan", "sinh", "cosh", "tanh", "sqrt", "rsqrt", "exp2", "log2")
# Unary ops with their rule: "math" (int/bool -> float32), "float" (float only, keeps dtype),
# "abs", "neg" (bool -> int32), "invert" (bool/int only), "isnan" (float -> bool).
UNARY = {name: "math" for name in MATH}
UNARY.update({"floor": "float", "ceil": "float", "abs": "abs", "neg": "neg", "invert": "invert",
              "isnan": "isnan"})


def result_dtype(op, a, b, a_literal=False, b_literal=False):
    """Result dtype of `a op b`; a and b are dtypes, or literal kinds when *_literal. None: refused."""
    if a_literal and b_literal:
        return None
    if a_literal or b_literal:
        typed, kind = (b, a) if a_literal else (a, b)
        if typed in dt.RESTRICTED:
            return None
        promoted = dt.promote_with_literal(typed, kind)
        return _apply(op, promoted, typed, kind)
    if a in dt.RESTRICTED or b in dt.RESTRICTED:
        return None
    if op == "cdiv":
        return None  # a literal divisor only (see FUNCTIONS)
    promoted = dt.promote(a, b)
    if promoted is None:
        return None
    if op in BITWISE and a != b:
        return None
    if op in SHIFTS and not (dt.is_int(a) and dt.is_int(b)):
        return None
    return _apply(op, promoted, a, None)


def _apply(op, promoted, typed, literal_kind):
    if op == "atan2":
        return promoted if dt.is_float(promoted) else None
    if op == "cdiv":
        return promoted if dt.is_int(typed) and literal_kind == "int" else None
    if op in COMPARE:
        if promoted == dt.BOOL and op not in ("==", "!="):
            return None
        return dt.BOOL
    if op in BITWISE:
        if not (dt.is_int(typed) or typed == dt.BOOL):
            return None
        if literal_kind is not None and literal_kind != ("bool" if typed == dt.BOOL else "int"):
            return None
        return typed
    if op in SHIFTS:
        if not dt.is_int(typed) or (literal_kind is not None and literal_kind != "int"):
            return None
        return promoted
    if promoted == dt.BOOL:
        return None
    if op == "/":
        return promoted if dt.is_float(promoted) else "float32"
    if op == "**":
        return promoted if dt.is_float(promoted) else None
    return promoted


def unary_result(op, dtype):
    rule = UNARY[op]
    if dtype in dt.RESTRICTED:
        return None
    if rule == "math":
        return dt.math_result(dtype)
    if rule == "float":
        return dtype if dt.is_float(dtype) else None
    if rule == "abs":
        return None if dtype == dt.BOOL else dtype
    if rule == "neg":
        return "int32" if dtype == dt.BOOL else dtype
    if rule == "invert":
        return dtype if (dt.is_int(dtype) or dtype == dt.BOOL) else None
    return dt.BOOL if dt.is_float(dtype) else None  # isnan


def unary_text(op, operand, rng):
    if op == "neg":
        return f"-{operand}" if rng.random() < 0.7 else f"ct.negative({operand})"
    if op == "invert":
        return f"~{operand}" if rng.random() < 0.7 else f"ct.bitwise_not({operand})"
    if op == "abs":
        return f"abs({operand})" if rng.random() < 0.5 else f"ct.abs({operand})"
    return f"ct.{op}({operand})"


def binary_text(op, a, b, result, rng):
    """Operator spelling, or the explicit ct.* call (min/max: the builtin or ct.minimum), which
    may carry the op's numeric options when the result dtype allows them."""
    if op in FUNCTIONS:
        return f"ct.{op}({a}, {b})"
    if op in MINMAX:
        return f"{op}({a}, {b})" if rng.random() < 0.5 else f"{EXPLICIT[op]}({a}, {b})"
    if rng.random() < 0.15:
        return f"{EXPLICIT[op]}({a}, {b}{numeric_options(op, result, rng)})"
    return f"({a} {op} {b})"


def numeric_options(op, dtype, rng):
    """rounding_mode= / flush_to_zero= as c.15 allows them for op on dtype (often none)."""
    options = ""
    modes = ROUNDING.get(op, ())
    if modes and dt.is_float(dtype) and rng.random() < 0.5:
        allowed = [m for m in modes if m not in ("FULL", "APPROX") or dtype == "float32"]
        options += f", rounding_mode=ct.RoundingMode.{rng.choice(allowed)}"
    if op in ROUNDING and dtype == "float32" and rng.random() < 0.3:
        options += ", flush_to_zero=True"
    return options


def literal(kind, dtype, op, rng):
    """A loose literal of `kind` that fits `dtype` (the typed side) and suits `op` as its right operand.

    Small magnitudes keep every literal in range of the narrowest integer dtype; divisors and
    shift amounts stay positive and below the bit width."""
    if kind == "bool":
        return "True" if op in ("//", "%", "/") else rng.choice(["True", "False"])
    if kind == "float":
        if op in ("//", "%", "/"):
            return rng.choice(["0.5", "2.0", "3.0", "-1.5", "1e-3"])
        if op == "**":
            return rng.choice(["2.0", "0.5", "3.0"])
        return rng.choice(["0.5", "1.0", "-2.0", "1e-3", "3.25", "-0.0"])
    unsigned = dtype in dt.UNSIGNED
    if op in SHIFTS:
        return str(rng.randint(0, 7))
    if op == "cdiv":
        return str(rng.randint(1, 7))
    if op in ("//", "%", "/"):
        value = rng.randint(1, 7)
        return str(-value if not unsigned and rng.random() < 0.3 else value)
    if op == "**":
        return str(rng.randint(1, 3))
    value = rng.randint(0, 7)
    return str(-value if not unsigned and rng.random() < 0.3 else value)


def spelled(text, kind, k, rng):
    """A literal as the kernel may spell it: itself, mostly; else a module-level constant read
    bare or through int() / float() / bool() (e.3), or math.pi / math.e for a positive float."""
    roll = rng.random()
    if roll < 0.8:
        return text
    if kind == "float" and roll < 0.85 and not text.startswith("-") and text != "0.0":
        return rng.choice(("math.pi", "math.e"))
    name = k.module_constant(text if roll < 0.95 else "1.0 / math.log(2)" if kind == "float" else text)
    if rng.random() < 0.5:
        return name
    return {"int": "int", "float": "float", "bool": "bool"}[kind] + f"({name})"
