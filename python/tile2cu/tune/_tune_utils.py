"""What the tuner runs a configuration with (module and names as in cuTile, so that code which
replaces `_benchmark` in tests finds it here)."""

from __future__ import annotations

from .. import _events, _kernel
from . import _ipc
from .._args import ArgError


class TileLaunchTimeoutError(RuntimeError):
    """A launch that did not finish within `single_run_timeout_sec` (cuTile's class)."""


def _benchmark(stream, grid, kernel, pyargs) -> float:
    """Launches `kernel` once on `stream` and returns its GPU time in microseconds (waits)."""
    try:
        return _events.time_launch_us(stream, lambda: _kernel.launch(stream, grid, kernel, pyargs))
    except ArgError as e:
        raise e.kind(str(e)) from None


def _export_ipc_benchmark_payload(stream, grid, kernel, pyargs):
    """What the separate process needs to launch `kernel` (its specialization built here), or
    None where the arguments cannot be shared with it (memory without a CUDA IPC handle)."""
    return _ipc.export_payload(stream, grid, kernel, pyargs)


def benchmark_with_timeout(stream, grid, kernel, pyargs, timeout_sec: float):
    """(GPU microseconds, wall seconds of the worker) of one launch run, as cuTile runs it, in
    a separate process that maps the arrays through CUDA IPC and is killed after `timeout_sec`
    seconds (TileLaunchTimeoutError), so that a kernel which never ends does not hang the
    tuner. Where the arguments cannot be shared, the launch runs here without a limit, as in
    cuTile: (GPU microseconds, None)."""
    payload = _export_ipc_benchmark_payload(stream, grid, kernel, pyargs)
    if payload is None:
        return _benchmark(stream, grid, kernel, pyargs), None
    try:
        return _ipc.run(payload, timeout_sec)
    except _ipc.LaunchTimeout:
        raise TileLaunchTimeoutError(
            f"CUDA kernel launch exceeded timeout of {timeout_sec} s (run in a separate "
            "process, which was killed)") from None
