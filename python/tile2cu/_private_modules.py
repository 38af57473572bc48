"""cuTile's private modules that public code imports names from (`from cuda.tile._exception
import TileTypeError`, `from cuda.tile._numeric_semantics import RoundingMode as RMd`, as
cuTile's own tests do). Each holds only names that are plain aliases of tile2cu's own."""

import enum
import os
import types

from . import _constraints, _device, _dtypes, _enums, _errors


def _module(name, doc, **names):
    m = types.ModuleType(name, doc)
    m.__dict__.update(names)
    return m


numeric_semantics = _module("cuda.tile._numeric_semantics", "Padding and rounding modes.",
                            PaddingMode=_enums.PaddingMode, RoundingMode=_enums.RoundingMode)

memory_model = _module("cuda.tile._memory_model", "Memory orders and scopes of atomics.",
                       MemoryOrder=_enums.MemoryOrder, MemoryScope=_enums.MemoryScope)

datatype = _module("cuda.tile._datatype", "The dtype objects.", DType=_dtypes.DType,
                   **_dtypes.ALL)

# tile2cu's _errors already has cuTile's class names (TypeCheckingError, ...), their public
# aliases (TileTypeError, ...) and Loc.
exception = _errors


class BytecodeVersion(enum.IntEnum):
    """cuTile's bytecode versions (names and values as cuTile's), for code that compares them."""
    V_13_1 = 130100
    V_13_2 = 130200
    V_13_3 = 130300
    V_13_4 = 130400
    V_13_5 = 130500


def _max_supported_bytecode_version(temp_dir: str, allow_dev: bool = False) -> BytecodeVersion:
    # cuTile asks tileiras which bytecode it reads. tile2cu reads none; it answers the first
    # version, which has none of the later features (block-scaled mma from 13.3), so programs
    # that check before using one say they skip it instead of failing later.
    # TILE2CU_BYTECODE_VERSION (e.g. 13.4) answers another: cuTile's test suite gates about a
    # third of its tests on the version, and tests/upstream/run_suite.py runs them with the
    # version of the cuTile it measures against, so that a missing feature fails, not skips.
    text = os.environ.get("TILE2CU_BYTECODE_VERSION")
    if not text:
        return BytecodeVersion.V_13_1
    try:
        return BytecodeVersion["V_" + text.replace(".", "_")]
    except KeyError:
        known = ", ".join(v.name[2:].replace("_", ".") for v in BytecodeVersion)
        raise ValueError(f"TILE2CU_BYTECODE_VERSION={text}: expected one of {known}") from None


bytecode = _module("cuda.tile._bytecode", "Bytecode versions.")
bytecode.__path__ = []  # a package: `cuda.tile._bytecode.version` is its submodule
bytecode_version = _module("cuda.tile._bytecode.version", "Bytecode versions.", BytecodeVersion=BytecodeVersion)
bytecode.version = bytecode_version

cext = _module("cuda.tile._cext", "The device queries public code imports from cuTile's extension.",
               get_compute_capability=_device.compute_capability,
               CallingConvention=_constraints.CallingConvention,
               dev_features_enabled=lambda: False)

compile_ = _module("cuda.tile._compile", "Compiler queries.",
                   _get_max_supported_bytecode_version=_max_supported_bytecode_version)
