"""Makes `import cuda.tile` (and `from cuda.tile import ...`, `import cuda.tile.tune`, the private
modules public code imports from, such as `cuda.tile._exception`) resolve to tile2cu.cutile and
its companions, for running unmodified cuTile scripts (`python -m tile2cu run script.py`).

A meta path finder answers for `cuda.tile` and its submodules. `cuda` itself stays the real
package where one is installed (cuda-python's `cuda.bindings`, `cuda.core` keep working); where
none is, the finder provides an empty namespace package for it.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import types

from . import _private_modules, cutile, tune

_SUBMODULES = {"cuda.tile": cutile, "cuda.tile.tune": tune,
               "cuda.tile.tune._tune": tune._tune, "cuda.tile.tune._tune_utils": tune._tune_utils,
               "cuda.tile.compilation": cutile.compilation,
               "cuda.tile._exception": _private_modules.exception,
               "cuda.tile._numeric_semantics": _private_modules.numeric_semantics,
               "cuda.tile._memory_model": _private_modules.memory_model,
               "cuda.tile._datatype": _private_modules.datatype,
               "cuda.tile._cext": _private_modules.cext,
               "cuda.tile._compile": _private_modules.compile_,
               "cuda.tile._bytecode": _private_modules.bytecode,
               "cuda.tile._bytecode.version": _private_modules.bytecode_version}
_PACKAGES = ("cuda.tile", "cuda.tile.tune", "cuda.tile._bytecode")


class _ExistingModuleLoader(importlib.abc.Loader):
    def __init__(self, module):
        self.module = module

    def create_module(self, spec):
        return self.module

    def exec_module(self, module):
        pass


class _EmptyPackageLoader(importlib.abc.Loader):
    def create_module(self, spec):
        return None

    def exec_module(self, module):
        module.__path__ = []


class CudaTileFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname in _SUBMODULES:
            return importlib.machinery.ModuleSpec(fullname, _ExistingModuleLoader(_SUBMODULES[fullname]),
                                                  is_package=fullname in _PACKAGES)
        if fullname.startswith("cuda.tile."):
            return None   # cuTile internals (cuda.tile._ir, ...): ModuleNotFoundError
        if fullname == "cuda":
            others = [f for f in sys.meta_path if f is not self]
            for finder in others:
                find = getattr(finder, "find_spec", None)
                spec = find(fullname, path, target) if find else None
                if spec is not None:
                    return spec
            return importlib.machinery.ModuleSpec("cuda", _EmptyPackageLoader(), is_package=True)
        return None


_finder = CudaTileFinder()
_child_attributes: set[str] = set()   # the private submodules install() set on tile2cu.cutile


def install() -> None:
    """From now on `import cuda.tile` gives tile2cu.cutile. Modules already imported as the
    real cuda.tile are replaced in sys.modules, so later imports see tile2cu."""
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)
    # `from cuda.tile import _datatype` first looks the name up on the module, then imports
    # f"{module.__name__}._datatype", which is tile2cu.cutile._datatype and does not exist: the
    # private submodules must be attributes of the module, as a real package's are once imported.
    for name, module in _SUBMODULES.items():
        parent, _, child = name.rpartition(".")
        if parent == "cuda.tile" and not hasattr(cutile, child):
            setattr(cutile, child, module)
            _child_attributes.add(child)
    for name in [n for n in sys.modules if n == "cuda.tile" or n.startswith("cuda.tile.")]:
        del sys.modules[name]
    cuda = sys.modules.get("cuda")
    if isinstance(cuda, types.ModuleType):
        cuda.tile = cutile


def install_for_children() -> None:
    """Python processes this one starts (spawned workers, subprocesses) install the alias at
    start-up too: _site/sitecustomize.py, first on their PYTHONPATH, with this package's folder."""
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    site = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_site")
    paths = [site, package_parent] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))


def uninstall() -> None:
    if _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
    for child in _child_attributes:
        delattr(cutile, child)
    _child_attributes.clear()
    for name in list(_SUBMODULES):
        if sys.modules.get(name) is _SUBMODULES[name]:
            del sys.modules[name]
    cuda = sys.modules.get("cuda")
    if getattr(cuda, "tile", None) is cutile:
        del cuda.tile
