"""cuTile internals that whole test files import at module level for a few of their tests, so
that the file imports and its other tests run against tile2cu. Two kinds:

- the language's dtype rule: `_ir.cast_ops._is_implicit_cast_ok`, written from the promotion
  table of the cuTile language (shared/cutile-language.md b.5, b.6: a value is cast implicitly
  only where promote(src, dst) == dst). Tests use it to decide whether to expect TileTypeError,
  so they check tile2cu against the language's rule, not against tile2cu's own code;
- names only the out-of-scope tests use (cuTile's IR op classes, its compile_tile entry, its
  bytecode float encoder, `static_def`): tile2cu has none of these, and using one raises
  TileUnsupportedFeatureError saying so (the op classes have no instances).
"""

from __future__ import annotations

import enum
import types


# ---- the implicit-cast rule of the language -------------------------------------------------

def _promote(a, b):
    """The promoted dtype of two typed operands by the language's table (b.5), None where the
    table says TileTypeError. tile2cu DType kinds: b bool, i signed, u unsigned, f float,
    r restricted float."""
    if a is b:
        return a
    if a.kind == "r" or b.kind == "r":   # restricted floats combine only with themselves
        return None
    if a.kind == "b":
        return b
    if b.kind == "b":
        return a
    if a.kind in "iu" and b.kind in "iu":
        if a.kind != b.kind:              # signed and unsigned never mix
            return None
        return a if a.bitwidth >= b.bitwidth else b
    if a.kind in "iu":
        return b
    if b.kind in "iu":
        return a
    if {a.name, b.name} == {"float16", "bfloat16"}:
        return None
    return a if a.bitwidth >= b.bitwidth else b


def is_implicit_cast_ok(src_dtype, target_dtype) -> bool:
    """Whether the language casts a `src_dtype` value to `target_dtype` implicitly (a store,
    an atomic update, a padding value): only losslessly, promote(src, dst) == dst (b.6)."""
    return _promote(src_dtype, target_dtype) is target_dtype


# ---- names that only out-of-scope tests use ---------------------------------------------------

def _unsupported(what: str):
    from tile2cu._errors import TileUnsupportedFeatureError
    return TileUnsupportedFeatureError(f"{what} is cuTile's own machinery, which tile2cu does not "
                                       "have (it writes CUDA C++ and builds it with nvcc)")


def compile_tile(*args, **kwargs):
    raise _unsupported("cuda.tile._compile.compile_tile (cuTile's IR and bytecode compiler)")


class LoadPointer:
    """An op class of cuTile's IR. tile2cu has no such IR: nothing is ever an instance."""


class StorePointer:
    """An op class of cuTile's IR. tile2cu has no such IR: nothing is ever an instance."""


class SimpleType(enum.Enum):
    """The element types of cuTile's bytecode that tests name for its float encoder."""
    F8E4M3FN = "f8e4m3fn"
    F8E5M2 = "f8e5m2"
    F8E8M0FNU = "f8e8m0fnu"
    F8E5M3FNU = "f8e5m3fnu"
    F4E2M1FN = "f4e2m1fn"


def float_to_bits(value, simple_type):
    raise _unsupported("cuda.tile._bytecode.float.float_to_bits (cuTile's bytecode float "
                       "encoding)")


def float_from_bits(bits, simple_type):
    raise _unsupported("cuda.tile._bytecode.float.float_from_bits (cuTile's bytecode float "
                       "encoding)")


def static_def(function):
    """cuTile's `@static_def` runs a dataclass method in Python at compile time; tile2cu's
    transpiler does not run user Python, so a class that uses it fails where it is defined."""
    raise _unsupported("cuda.tile._execution.static_def (methods cuTile's compiler runs in "
                       "Python)")


def modules() -> dict[str, types.ModuleType]:
    """The cuTile-internal modules that tile2cu's alias lacks, by name."""
    cast_ops = types.ModuleType("cuda.tile._ir.cast_ops", "The language's implicit-cast rule.")
    cast_ops._is_implicit_cast_ok = is_implicit_cast_ok
    ops = types.ModuleType("cuda.tile._ir.ops", "cuTile IR op classes (no instances).")
    ops.LoadPointer, ops.StorePointer = LoadPointer, StorePointer
    bytecode_float = types.ModuleType("cuda.tile._bytecode.float", "cuTile's float encoder.")
    bytecode_float.float_to_bits, bytecode_float.float_from_bits = float_to_bits, float_from_bits
    execution = types.ModuleType("cuda.tile._execution", "cuTile's compile-time execution.")
    execution.static_def = static_def
    return {m.__name__: m for m in (cast_ops, ops, bytecode_float, execution)}
