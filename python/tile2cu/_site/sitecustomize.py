"""Started by every Python process of a program run through `python -m tile2cu run` (the run puts
this folder first on PYTHONPATH): worker processes (`multiprocessing` with spawn,
`torch.multiprocessing.spawn`, `subprocess` running Python) see `cuda.tile` as tile2cu too, as the
main process does. Any other sitecustomize on the path still runs after this one."""

import importlib.machinery
import importlib.util
import os
import sys


def _install_alias():
    from tile2cu import _alias
    _alias.install()


def _run_next_sitecustomize():
    here = os.path.dirname(os.path.abspath(__file__))
    rest = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


_install_alias()
_run_next_sitecustomize()
