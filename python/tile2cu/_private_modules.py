"""cuTile's private modules that public code imports names from (`from cuda.tile._exception
import TileTypeError`, `from cuda.tile._numeric_semantics import RoundingMode as RMd`, as
cuTile's own tests do). Each holds only names that are plain aliases of tile2cu's own."""

import types

from . import _dtypes, _enums, _errors


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
