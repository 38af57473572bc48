"""A launch with a wall-time limit (`exhaustive_search(..., single_run_timeout_sec=...)`), as
cuTile runs it: in a separate process that maps this process's arrays through CUDA IPC and that
is killed when the limit passes, so a configuration whose kernel never ends is reported as a
failure (TileLaunchTimeoutError) instead of hanging the tuner.

This process builds the specialization (as a launch would), waits for its stream, and writes a
payload: the built library and its entry, the grid, and the C entry's arguments with each array
pointer as (IPC handle of its allocation, offset). _ipc_worker.py, started by its path with this
Python, launches it once and prints the GPU time. The limit counts from the worker's start, so
it includes its start-up (a Python process and a CUDA context: about a second).
"""

from __future__ import annotations

import ctypes
import json
import subprocess
import sys
import time
from pathlib import Path

from .. import _args, _kernel

WORKER = Path(__file__).with_name("_ipc_worker.py")


class LaunchTimeout(Exception):
    """The worker did not finish within the limit (it has been killed)."""


_SCALAR_NAMES = {ctypes.c_bool: "bool", ctypes.c_int8: "int8", ctypes.c_int16: "int16",
                 ctypes.c_int32: "int32", ctypes.c_int64: "int64", ctypes.c_uint8: "uint8",
                 ctypes.c_uint16: "uint16", ctypes.c_uint32: "uint32",
                 ctypes.c_uint64: "uint64", ctypes.c_float: "float", ctypes.c_double: "double"}


class _Driver:
    """The few driver calls the export needs (libcuda through ctypes)."""

    def __init__(self):
        cuda = ctypes.CDLL("libcuda.so.1")
        cuda.cuMemGetAddressRange_v2.argtypes = [ctypes.POINTER(ctypes.c_uint64),
                                                 ctypes.POINTER(ctypes.c_size_t), ctypes.c_uint64]
        cuda.cuIpcGetMemHandle.argtypes = [ctypes.c_char_p, ctypes.c_uint64]
        cuda.cuStreamSynchronize.argtypes = [ctypes.c_void_p]
        self.cuda = cuda

    def allocation_base(self, ptr: int) -> int | None:
        base, size = ctypes.c_uint64(), ctypes.c_size_t()
        rc = self.cuda.cuMemGetAddressRange_v2(ctypes.byref(base), ctypes.byref(size), ptr)
        return None if rc else base.value

    def ipc_handle(self, base: int) -> bytes | None:
        """The allocation's IPC handle; None where it has none (managed memory, allocations
        made with the virtual memory API)."""
        handle = ctypes.create_string_buffer(64)
        return None if self.cuda.cuIpcGetMemHandle(handle, base) else handle.raw

    def device(self) -> int:
        dev = ctypes.c_int()
        rc = self.cuda.cuCtxGetDevice(ctypes.byref(dev))
        if rc:
            raise RuntimeError(f"cuCtxGetDevice failed with CUDA driver error {rc}")
        return dev.value

    def synchronize(self, handle: int) -> None:
        rc = self.cuda.cuStreamSynchronize(ctypes.c_void_p(handle or None))
        if rc:
            raise RuntimeError(f"cuStreamSynchronize failed with CUDA driver error {rc}")


def export_payload(stream, grid, kernel, pyargs, driver=None) -> dict | None:
    """The worker's payload for launching `kernel` with `pyargs`, building its specialization
    first; None where an array's memory cannot be shared through CUDA IPC."""
    try:
        gx, gy, gz = _kernel._grid(grid)
        bound = _kernel._Bound()
        key, flat = _kernel._bind(kernel, pyargs, bound)
        spec = kernel._specs.get(key) or kernel._specialize(key, pyargs)
    except _args.ArgError as e:
        raise e.kind(str(e)) from None
    driver = driver or _Driver()
    handles = {}

    def shared(ptr):
        base = driver.allocation_base(ptr)
        if base is None:
            return None
        if base not in handles:
            handles[base] = driver.ipc_handle(base)
        if handles[base] is None:
            return None
        return {"t": "ptr", "ipc": handles[base].hex(), "off": ptr - base}

    args = []
    types = bound.argtypes[4:]   # after the stream and the grid
    for n, (ctype, value) in enumerate(zip(types, flat)):
        if ctype is ctypes.c_void_p:   # an array's data pointer
            ref = shared(value)
            if ref is None:
                return None
            args.append(ref)
        elif isinstance(value, ctypes.Array):   # a list's table; its item count follows
            words, count = list(value), flat[n + 1]
            per_item = len(words) // count   # pointer, then shape and strides
            for i in range(0, len(words), per_item):
                ref = shared(words[i] % 2**64)
                if ref is None:
                    return None
                words[i] = ref
            args.append({"t": "words", "v": words})
        else:
            args.append({"t": "s", "c": _SCALAR_NAMES[ctype], "v": value})
    driver.synchronize(_args.stream_handle(stream) if type(stream) is not int else stream)
    payload = {"device": driver.device(), "grid": [gx, gy, gz], "args": args}
    if getattr(spec, "compiler", "nvcc") == "nvrtc":
        # The worker loads the cubin and launches it from its plan, with this package's code.
        payload["nvrtc"] = {"folder": str(spec.folder),
                            "package_root": str(Path(_kernel.__file__).resolve().parents[1])}
    else:
        payload.update(lib=str(Path(spec.folder) / "lib.so"), entry=spec.entry.__name__)
    return payload


def run(payload: dict, timeout_sec: float, command=None) -> tuple[float, float]:
    """(GPU microseconds the worker measured, wall seconds the worker took); LaunchTimeout past
    `timeout_sec` (the worker killed), RuntimeError with its reason where it failed."""
    command = command or [sys.executable, str(WORKER)]
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(json.dumps(payload), timeout=timeout_sec)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise LaunchTimeout() from None
    lines = out.strip().splitlines()
    answer = json.loads(lines[-1]) if lines and lines[-1].startswith("{") else {}
    if proc.returncode == 0 and "us" in answer:
        return float(answer["us"]), time.perf_counter() - start
    reason = answer.get("error") or (err.strip().splitlines() or ["no output"])[-1]
    raise RuntimeError(f"the launch in a separate process failed (exit status "
                       f"{proc.returncode}): {reason}")
