"""Timing one launch on its stream with CUDA events (the driver API through ctypes): what the
tuner measures, as cuTile's `_benchmark` does."""

from __future__ import annotations

import ctypes
import threading

from . import _args

_lock = threading.Lock()
_cuda = None


def _driver():
    global _cuda
    with _lock:
        if _cuda is None:
            cuda = ctypes.CDLL("libcuda.so.1")
            for name in ("cuEventRecord",):
                getattr(cuda, name).argtypes = [ctypes.c_void_p, ctypes.c_void_p]
            for name in ("cuEventSynchronize", "cuEventDestroy_v2", "cuCtxSetCurrent"):
                getattr(cuda, name).argtypes = [ctypes.c_void_p]
            cuda.cuEventElapsedTime.argtypes = [ctypes.POINTER(ctypes.c_float), ctypes.c_void_p,
                                                ctypes.c_void_p]
            _cuda = cuda
    return _cuda


def _check(rc: int, what: str) -> None:
    if rc:
        raise RuntimeError(f"{what} failed with CUDA driver error {rc}")


def _ensure_context(cuda) -> None:
    """Events need a current context. The generated launchers use the runtime API, which works
    in the current device's primary context; on a thread that has none yet, make device 0's
    primary context current, as the runtime would."""
    ctx = ctypes.c_void_p()
    _check(cuda.cuCtxGetCurrent(ctypes.byref(ctx)), "cuCtxGetCurrent")
    if ctx.value:
        return
    _check(cuda.cuInit(0), "cuInit")
    _check(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), 0), "cuDevicePrimaryCtxRetain")
    _check(cuda.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")


def time_launch_us(stream, launch) -> float:
    """Microseconds the work `launch()` queues on `stream` takes on the GPU, between two events
    recorded on that stream; waits for it."""
    cuda = _driver()
    _ensure_context(cuda)
    handle = ctypes.c_void_p(_args.stream_handle(stream) or None)
    start, end = ctypes.c_void_p(), ctypes.c_void_p()
    _check(cuda.cuEventCreate(ctypes.byref(start), 0), "cuEventCreate")
    try:
        _check(cuda.cuEventCreate(ctypes.byref(end), 0), "cuEventCreate")
        try:
            _check(cuda.cuEventRecord(start, handle), "cuEventRecord")
            launch()
            _check(cuda.cuEventRecord(end, handle), "cuEventRecord")
            _check(cuda.cuEventSynchronize(end), "cuEventSynchronize")
            ms = ctypes.c_float()
            _check(cuda.cuEventElapsedTime(ctypes.byref(ms), start, end), "cuEventElapsedTime")
            return ms.value * 1000.0
        finally:
            cuda.cuEventDestroy_v2(end)
    finally:
        cuda.cuEventDestroy_v2(start)
