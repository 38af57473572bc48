"""`cuda.tile.compilation` as scripts import it. tile2cu does not export cubins; calling it
says so precisely instead of failing at import."""

import types

from ._errors import TileUnsupportedFeatureError


def _unsupported(module, name, instead):
    def call(*args, **kwargs):
        raise TileUnsupportedFeatureError(f"cuda.tile.{module}.{name}() is not supported by "
                                          f"tile2cu yet; {instead}")
    call.__name__ = call.__qualname__ = name
    return call


compilation = types.ModuleType("cuda.tile.compilation",
                               "cuTile ahead-of-time export (tile2cu's CLI does this instead).")
compilation.export_kernel = _unsupported(
    "compilation", "export_kernel",
    "the tile2cu command line writes the kernel as CUDA C++ (tile2cu kernel.py --sig ...)")
