"""Started by every Python process of a suite run (run_suite.py puts this folder first on
PYTHONPATH). Some tests run Python in a subprocess (test_assert.py runs its own file, which
imports util.py, which imports cuTile internals such as `cuda.tile._compile.get_sm_arch`); only
the pytest processes load the plugin, so the stand-ins are installed here for the others too.

The next sitecustomize on the path (tile2cu's _site one, which installs the `cuda.tile` alias)
runs first, so the stand-ins land on the alias's modules, as in the pytest processes."""

import importlib.machinery
import importlib.util
import os
import sys


def _run_next_sitecustomize():
    here = os.path.dirname(os.path.abspath(__file__))
    saved = list(sys.path)
    # The next one chains to the one after it the same way: without this folder on sys.path
    # meanwhile, it cannot find this file again.
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    try:
        spec = importlib.machinery.PathFinder.find_spec("sitecustomize", sys.path)
        if spec is not None and spec.loader is not None:
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
    finally:
        sys.path[:] = saved


_run_next_sitecustomize()
import standins  # noqa: E402 - after the alias is installed

standins.install()
