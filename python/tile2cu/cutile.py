"""cuTile's host-side surface, running kernels through tile2cu.

    import tile2cu.cutile as ct      # instead of: import cuda.tile as ct

or leave the script as it is and run it with `python -m tile2cu run script.py`, which makes
`import cuda.tile` resolve to this module. Kernels are transpiled to CUDA C++ and built with
nvcc at their first launch per signature (cached on disk); see docs/python-launcher.md.

Tile-code functions (`ct.load`, `ct.bid`, ...) exist so kernel modules import and refer to them;
the transpiler compiles them, and calling one from host code raises RuntimeError, as in cuTile.
"""

from ._annotations import (Array, ArrayAnnotation, Constant, ConstantAnnotation,  # noqa: F401
                           IndexedWithInt64, ListAnnotation, Scalar, ScalarAnnotation,
                           ScalarInt64, Tile, TiledView)
from ._dtypes import (DType, bfloat16, bool_, float4_e2m1fn, float8_e4m3fn,  # noqa: F401
                      float8_e5m2, float8_e5m3fnu, float8_e8m0fnu, float16, float32, float64,
                      int8, int16, int32, int64, tfloat32, uint8, uint16, uint32, uint64)
from ._enums import MemoryOrder, MemoryScope, PaddingMode, RoundingMode  # noqa: F401
from ._errors import (StaticException, TileCompilerExecutionError,  # noqa: F401
                      TileCompilerTimeoutError, TileError, TileInternalError,
                      TileRecursionError, TileStaticAssertionError, TileStaticEvalError,
                      TileSyntaxError, TileTypeError, TileUnsupportedFeatureError,
                      TileValueError)
from ._build import compiler_timeout  # noqa: F401
from ._kernel import ByTarget, cdiv, function, kernel, launch  # noqa: F401
from .version import __version__  # noqa: F401

# The tile-code functions of cuTile's public API (cdiv also runs on the host, above).
_TILE_FUNCTIONS = (
    "abs add arange argmax argmin assert_ assume_divisible_by astile astype atan2 atomic_add "
    "atomic_and atomic_cas atomic_max atomic_min atomic_or atomic_xchg atomic_xor bitwise_and "
    "bitwise_lshift bitwise_not bitwise_or bitwise_rshift bitwise_xor bid bitcast broadcast_to "
    "cat ceil cos cosh cumprod cumsum divmod ensure_constant equal exp exp2 expand_dims extract "
    "floor floordiv full gather greater greater_equal insert less less_equal load "
    "load_advanced_indexing log log2 matmul max maximum min minimum mma mma_scaled mod mul "
    "negative isnan not_equal num_blocks num_tiles ones pack_to_bytes permute pow printf print "
    "prod reduce reshape rsqrt scan scatter sin sinh sqrt static_assert static_eval "
    "static_exception static_iter store store_advanced_indexing sub sum tan tanh transpose "
    "truediv unpack_from_bytes where zeros grid_dependency_control_wait "
    "grid_dependency_control_launch_dependents").split()


def _tile_only(name):
    def tile_function(*args, **kwargs):
        raise RuntimeError(f"ct.{name}() is tile code: it can only be called inside a kernel "
                           "(or a function a kernel calls)")
    tile_function.__name__ = tile_function.__qualname__ = name
    return tile_function


class Slice:
    """`ct.Slice(start, length)`: a dense index entry for the advanced-indexing operations
    (tile code only)."""

    def __init__(self, start, length):
        self.start, self.length = start, length


globals().update({_name: _tile_only(_name) for _name in _TILE_FUNCTIONS})


__all__ = sorted(
    ["Array", "ArrayAnnotation", "ByTarget", "Constant", "ConstantAnnotation", "DType",
     "IndexedWithInt64", "ListAnnotation", "MemoryOrder", "MemoryScope", "PaddingMode",
     "RoundingMode", "Scalar", "ScalarInt64", "Slice", "StaticException", "Tile", "TiledView",
     "TileCompilerExecutionError", "TileCompilerTimeoutError", "TileError", "TileInternalError",
     "TileRecursionError", "TileStaticAssertionError", "TileStaticEvalError", "TileSyntaxError",
     "TileTypeError", "TileUnsupportedFeatureError", "TileValueError", "bfloat16", "bool_",
     "cdiv", "compiler_timeout", "float16", "float32", "float4_e2m1fn", "float64",
     "float8_e4m3fn", "float8_e5m2", "float8_e5m3fnu", "float8_e8m0fnu", "function", "int16",
     "int32", "int64", "int8", "kernel", "launch", "tfloat32", "uint16", "uint32", "uint64",
     "uint8", "tune", "compilation"] + list(_TILE_FUNCTIONS))

from . import tune  # noqa: E402,F401
from . import compilation  # noqa: E402,F401
