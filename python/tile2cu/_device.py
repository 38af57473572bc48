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


def _query() -> Devices:
    forced = os.environ.get("TILE2CU_ARCH")
    if forced:
        # For building without a GPU (tests, CI): no launch will work, but compiling does.
        archs = tuple(sorted({a.strip() for a in forced.split(",") if a.strip()}))
        return Devices(archs, (2**31 - 1, 65535, 65535))
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError as e:
        raise RuntimeError(f"tile2cu: no CUDA driver (libcuda.so.1): {e}. Set TILE2CU_ARCH=sm_XX "
                           "to compile without a GPU") from None
    if cuda.cuInit(0) != 0:
        raise RuntimeError("tile2cu: cuInit failed: no usable CUDA device")
    count = ctypes.c_int(0)
    if cuda.cuDeviceGetCount(ctypes.byref(count)) != 0 or count.value == 0:
        raise RuntimeError("tile2cu: no CUDA device")
    archs, limits = set(), [2**31 - 1, 65535, 65535]
    value = ctypes.c_int(0)
    for ordinal in range(count.value):
        dev = ctypes.c_int(0)
        cuda.cuDeviceGet(ctypes.byref(dev), ordinal)

        def attr(a):
            cuda.cuDeviceGetAttribute(ctypes.byref(value), a, dev)
            return value.value

        archs.add(_arch_name(attr(_ATTR_CC_MAJOR), attr(_ATTR_CC_MINOR)))
        for k, a in enumerate(_ATTR_MAX_GRID_DIM):
            limits[k] = min(limits[k], attr(a))
    return Devices(tuple(sorted(archs)), tuple(limits))


def devices() -> Devices:
    global _devices
    if _devices is None:
        with _lock:
            if _devices is None:
                _devices = _query()
    return _devices
