"""What cuTile's own test/conftest.py and test/util.py import from cuTile internals (and a few
plain re-exports test files import), answered by tile2cu where it has an honest answer (issue 23,
item 3). Nothing here pretends to compile: a
name that would need cuTile's compiler raises TileUnsupportedFeatureError when used, so only the
tests that use it fail, instead of every test file failing to import util.py.

Each name is added only where tile2cu's alias lacks it, so once the alias grows a real one, that
one is used. Installed by the pytest plugin (tile2cu_conformance) before conftest.py is imported.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
from dataclasses import dataclass
from pathlib import Path

import standins_internals


def _alias_modules():
    """tile2cu's alias, installed (the runner's PYTHONPATH already does it through
    sitecustomize; a plain `pytest -p tile2cu_conformance` gets it here)."""
    try:
        from tile2cu import _alias
    except ImportError as e:
        raise ImportError("tile2cu_conformance: cannot import tile2cu (put the checkout's python/ "
                          f"folder on PYTHONPATH, or use tests/upstream/run_suite.py): {e}") from None
    _alias.install()
    import cuda.tile
    import cuda.tile._bytecode.version
    import cuda.tile._cext
    import cuda.tile._compile
    import cuda.tile.compilation
    return cuda.tile


def _add(module: types.ModuleType, name: str, value) -> None:
    if not hasattr(module, name):
        setattr(module, name, value)


# ---- cuda.tile._bytecode.version.BytecodeVersion: major(), minor(), as_string() ---------------
# conftest.py prints get_tileiras_version().as_string() and names versions by major and minor.

def _bytecode_version_methods(version_class) -> None:
    _add(version_class, "major", lambda self: int(self) // 10000)
    _add(version_class, "minor", lambda self: int(self) // 100 % 100)
    _add(version_class, "as_string", lambda self: f"{self.major()}.{self.minor()}")


# ---- cuda.tile._compile -----------------------------------------------------------------------

@dataclass(frozen=True)
class CompilerBinary:
    """What conftest.py reads from `_find_compiler_bin()`: the compiler's path. tile2cu's
    compiler is the tile2cu binary the launcher uses."""
    path: str


def _find_compiler_bin() -> CompilerBinary:
    from tile2cu import _build
    try:
        return CompilerBinary(str(_build.find_tool()))
    except FileNotFoundError as e:
        return CompilerBinary(f"(not found: {e})")


def format_sm_arch(major: int, minor: int) -> str:
    return f"sm_{major}{minor}"


def get_sm_arch(device_id: int = 0) -> str:
    from tile2cu import _device
    return format_sm_arch(*_device.compute_capability(device_id))


def _compile_names(compile_module, version_class) -> None:
    # Every version cuTile names counts as known; whether a test that needs one runs is then
    # decided by _get_max_supported_bytecode_version alone (tile2cu answers the first version:
    # see python/tile2cu/_private_modules.py), so such tests skip with cuTile's own reason.
    _add(compile_module, "_SUPPORTED_VERSIONS", frozenset(version_class))
    _add(compile_module, "_find_compiler_bin", _find_compiler_bin)
    _add(compile_module, "format_sm_arch", format_sm_arch)
    _add(compile_module, "get_sm_arch", get_sm_arch)


# ---- names test files import beside conftest.py's and util.py's, as plain re-exports ------------

def _reexports(bytecode_module, cext_module, version_class) -> None:
    # cuTile's _bytecode package re-exports BytecodeVersion from its version module.
    _add(bytecode_module, "BytecodeVersion", version_class)
    # cuTile's calling convention v3 (dataclass and other structured kernel arguments, gated by
    # an environment switch in cuTile) is an ABI of cuTile's; tile2cu has no such mode. Tests
    # that need it skip with cuTile's own reason, "Requires cconv3 enabled".
    _add(cext_module, "cconv_v3_enabled", lambda: False)


# ---- cuda.tile._ir.typing_support.to_dtype ------------------------------------------------------
# util.py imports it at module level: torch, numpy and Python dtypes to cuTile's dtype objects,
# which tile2cu's launcher already does for its arguments.

def to_dtype(obj):
    from tile2cu import _dtypes
    dtype = _dtypes.from_foreign(obj)
    if dtype is None:
        raise TypeError(f"{obj!r} does not name a cuTile dtype")
    return dtype


class _ExtraModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves the few cuTile-internal modules added here. tile2cu's own alias finder answers
    None for every other `cuda.tile.*` name, so the two never compete."""

    def __init__(self, modules: dict[str, types.ModuleType]):
        self.modules = modules

    def find_spec(self, fullname, path=None, target=None):
        module = self.modules.get(fullname)
        if module is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=hasattr(module, "__path__"))

    def create_module(self, spec):
        return self.modules[spec.name]

    def exec_module(self, module):
        pass


def _ir_modules() -> dict[str, types.ModuleType]:
    ir = types.ModuleType("cuda.tile._ir", "The part of cuTile's IR package util.py imports.")
    ir.__path__ = []
    typing_support = types.ModuleType("cuda.tile._ir.typing_support", "dtype conversion.")
    typing_support.to_dtype = to_dtype
    ir.typing_support = typing_support
    return {"cuda.tile._ir": ir, "cuda.tile._ir.typing_support": typing_support}


_installed = False


def install() -> list[str]:
    """Adds the stand-ins; returns one line per name, saying what answers it (for the session
    header)."""
    global _installed
    ct = _alias_modules()
    version_class = sys.modules["cuda.tile._bytecode.version"].BytecodeVersion
    _bytecode_version_methods(version_class)
    _compile_names(sys.modules["cuda.tile._compile"], version_class)
    _reexports(sys.modules["cuda.tile._bytecode"], sys.modules["cuda.tile._cext"], version_class)
    _add(sys.modules["cuda.tile._bytecode"], "SimpleType", standins_internals.SimpleType)
    _add(sys.modules["cuda.tile._compile"], "compile_tile", standins_internals.compile_tile)
    if not _installed:
        extra = {}
        try:
            import cuda.tile._ir.typing_support  # noqa: F401 - the alias has it already
        except ImportError:
            extra.update(_ir_modules())
        for name, module in standins_internals.modules().items():
            try:
                importlib.import_module(name)   # the alias has it already
            except ImportError:
                extra[name] = module
        sys.meta_path.append(_ExtraModules(extra))
        _installed = True
    return [f"cuda.tile is {Path(ct.__file__).resolve()}",
            f"tile compiler: {sys.modules['cuda.tile._compile']._find_compiler_bin().path}"]
