"""What the tuner runs a configuration with (module and names as in cuTile, so that code which
replaces `_benchmark` in tests finds it here)."""

from __future__ import annotations

from .. import _errors, _events, _kernel
from .._args import ArgError


class TileLaunchTimeoutError(RuntimeError):
    """A launch that did not finish within `single_run_timeout_sec` (cuTile's class)."""


def _benchmark(stream, grid, kernel, pyargs) -> float:
    """Launches `kernel` once on `stream` and returns its GPU time in microseconds (waits)."""
    try:
        return _events.time_launch_us(stream, lambda: _kernel.launch(stream, grid, kernel, pyargs))
    except ArgError as e:
        raise e.kind(str(e)) from None


def benchmark_with_timeout(stream, grid, kernel, pyargs, timeout_sec: float):
    """cuTile runs a launch with a wall-time limit in a worker process that maps the arrays
    through CUDA IPC, so that a kernel which never ends does not hang the tuning process.
    tile2cu has no such worker yet, and a limit it could not enforce would be a false promise."""
    raise _errors.TileUnsupportedFeatureError(
        f"single_run_timeout_sec={timeout_sec}: tile2cu cannot time a launch in a separate process "
        "yet; tune without a per-launch time limit (single_run_timeout_sec=None)")
