"""tile2cu's Python launcher: run cuTile programs (`ct.launch`) through kernels transpiled to
CUDA C++. `import tile2cu.cutile as ct`, or `python -m tile2cu run script.py`."""

from .version import __version__  # noqa: F401
