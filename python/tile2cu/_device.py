"""What the launcher needs to know about the GPUs, from the CUDA driver (libcuda) via ctypes:
the architectures to compile for and the grid limits. Asked once per process."""

from __future__ import annotations

import ctypes
import os
import threading

_ATTR_MAX_GRID_DIM = (5, 6, 7)        # CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X/Y/Z
_ATTR_CC_MAJOR, _ATTR_CC_MINOR = 75, 76


class Devices:
    """The distinct architectures of the visible GPUs (`sm_90`, ...) and the grid limits that
    hold on all of them."""

    def __init__(self, archs: tuple[str, ...], max_grid: tuple[int, int, int]):
        self.archs = archs
        self.max_grid = max_grid


_lock = threading.Lock()
_devices: Devices | None = None


def _arch_name(major: int, minor: int) -> str:
    # Hopper's and Blackwell's architecture-specific features (wgmma, TMA multicast) need the
    # "a" targets; code built for them runs only on that exact architecture, as here.
    suffix = "a" if major in (9, 10) else ""
    return f"sm_{major}{minor}{suffix}"


def _driver():
    """libcuda, initialized, and the handles of the visible devices; RuntimeError saying why
    not."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError as e:
        raise RuntimeError(f"no CUDA driver (libcuda.so.1): {e}") from None
    if cuda.cuInit(0) != 0:
        raise RuntimeError("cuInit failed: no usable CUDA device")
    count = ctypes.c_int(0)
    if cuda.cuDeviceGetCount(ctypes.byref(count)) != 0 or count.value == 0:
        raise RuntimeError("no CUDA device")
    handles = []
    for ordinal in range(count.value):
        dev = ctypes.c_int(0)
        cuda.cuDeviceGet(ctypes.byref(dev), ordinal)
        handles.append(dev)
    return cuda, handles


def _attribute(cuda, dev, attr: int) -> int:
    value = ctypes.c_int(0)
    cuda.cuDeviceGetAttribute(ctypes.byref(value), attr, dev)
    return value.value


def _query() -> Devices:
    forced = os.environ.get("TILE2CU_ARCH")
    if forced:
        # For building without a GPU (tests, CI): no launch will work, but compiling does.
        archs = tuple(sorted({a.strip() for a in forced.split(",") if a.strip()}))
        return Devices(archs, (2**31 - 1, 65535, 65535))
    try:
        cuda, handles = _driver()
    except RuntimeError as e:
        raise RuntimeError(f"tile2cu: {e}. Set TILE2CU_ARCH=sm_XX to compile without a GPU") from None
    archs, limits = set(), [2**31 - 1, 65535, 65535]
    for dev in handles:
        archs.add(_arch_name(_attribute(cuda, dev, _ATTR_CC_MAJOR),
                             _attribute(cuda, dev, _ATTR_CC_MINOR)))
        for k, a in enumerate(_ATTR_MAX_GRID_DIM):
            limits[k] = min(limits[k], _attribute(cuda, dev, a))
    return Devices(tuple(sorted(archs)), tuple(limits))


def compute_capability(device_id: int = 0) -> tuple[int, int]:
    """The (major, minor) compute capability of the visible GPU `device_id`."""
    cuda, handles = _driver()
    if not 0 <= device_id < len(handles):
        raise ValueError(f"no CUDA device {device_id} ({len(handles)} visible)")
    dev = handles[device_id]
    return _attribute(cuda, dev, _ATTR_CC_MAJOR), _attribute(cuda, dev, _ATTR_CC_MINOR)


def describe_gpus() -> tuple[str, list[str]]:
    """For `python -m tile2cu doctor`: the driver's CUDA version and one line per visible GPU
    (name, compute capability, the architecture tile2cu builds for). RuntimeError saying why
    when there is no driver or no GPU."""
    cuda, handles = _driver()
    version = ctypes.c_int(0)
    cuda.cuDriverGetVersion(ctypes.byref(version))
    lines = []
    for ordinal, dev in enumerate(handles):
        name = ctypes.create_string_buffer(256)
        cuda.cuDeviceGetName(name, len(name), dev)
        major, minor = _attribute(cuda, dev, _ATTR_CC_MAJOR), _attribute(cuda, dev, _ATTR_CC_MINOR)
        lines.append(f"{ordinal}: {name.value.decode(errors='replace')}, compute capability "
                     f"{major}.{minor} ({_arch_name(major, minor)})")
    return f"{version.value // 1000}.{version.value % 1000 // 10}", lines


def devices() -> Devices:
    global _devices
    if _devices is None:
        with _lock:
            if _devices is None:
                _devices = _query()
    return _devices


_CAPTURE_STATUS_NONE = 0   # CU_STREAM_CAPTURE_STATUS_NONE; ACTIVE and INVALIDATED are captures


def stream_is_capturing(handle: int) -> bool:
    """Whether stream `handle` is recording a CUDA graph (cuStreamIsCapturing); False where the
    driver cannot say (no driver: nothing launches either)."""
    try:
        cuda, _ = _driver()
    except RuntimeError:
        return False
    status = ctypes.c_int(_CAPTURE_STATUS_NONE)
    if cuda.cuStreamIsCapturing(ctypes.c_void_p(handle), ctypes.byref(status)) != 0:
        return False
    return status.value != _CAPTURE_STATUS_NONE
