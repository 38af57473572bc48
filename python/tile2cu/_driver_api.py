"""The CUDA driver calls the NVRTC launch path makes (libcuda.so.1 through ctypes): load a cubin
into the current context, find its kernels, set their shared memory, ask occupancy, launch.

Every function here runs in the calling thread's current context, which is the runtime's primary
context of the current device when torch, CuPy or Numba made it current; a thread with none gets
device 0's primary context, as the runtime would give it.
"""

from __future__ import annotations

import ctypes
import threading

from . import _call_abi

CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76

_lock = threading.Lock()
_lib = None


class DriverError(RuntimeError):
    def __init__(self, call: str, code: int):
        super().__init__(f"{call} failed with CUDA driver error {code}")
        self.code = code


def lib():
    """libcuda, initialized and declared, once."""
    global _lib
    if _lib is None:
        with _lock:
            if _lib is None:
                try:
                    cuda = ctypes.CDLL("libcuda.so.1")
                except OSError as e:
                    raise RuntimeError(f"no CUDA driver (libcuda.so.1): {e}") from None
                _declare(cuda)
                _check(cuda.cuInit(0), "cuInit")
                _lib = cuda
    return _lib


def _declare(cuda) -> None:
    c, p = ctypes, ctypes.c_void_p
    cuda.cuCtxGetCurrent.argtypes = [c.POINTER(p)]
    cuda.cuCtxSetCurrent.argtypes = [p]
    cuda.cuCtxGetDevice.argtypes = [c.POINTER(c.c_int)]
    cuda.cuDevicePrimaryCtxRetain.argtypes = [c.POINTER(p), c.c_int]
    cuda.cuDeviceGetAttribute.argtypes = [c.POINTER(c.c_int), c.c_int, c.c_int]
    cuda.cuModuleLoadData.argtypes = [c.POINTER(p), c.c_char_p]
    cuda.cuModuleGetFunction.argtypes = [c.POINTER(p), p, c.c_char_p]
    cuda.cuFuncSetAttribute.argtypes = [p, c.c_int, c.c_int]
    cuda.cuMemAllocAsync.argtypes = [c.POINTER(c.c_uint64), c.c_size_t, p]
    cuda.cuMemcpyHtoDAsync_v2.argtypes = [c.c_uint64, c.c_char_p, c.c_size_t, p]
    cuda.cuMemFreeAsync.argtypes = [c.c_uint64, p]
    cuda.cuOccupancyMaxActiveBlocksPerMultiprocessor.argtypes = [c.POINTER(c.c_int), p, c.c_int,
                                                                 c.c_size_t]
    # Grid, block and shared memory are checked ints by then: declared as _call_abi declares
    # integers, for the fastest conversion; kernelParams points at each packed value.
    cuda.cuLaunchKernel.argtypes = _call_abi.entry_argtypes(
        [p, c.c_uint, c.c_uint, c.c_uint, c.c_uint, c.c_uint, c.c_uint, c.c_uint, p, p, p])
    cuda.cuLaunchKernel.restype = c.c_int


def _check(rc: int, call: str) -> None:
    if rc:
        raise DriverError(call, rc)


def current_context() -> int:
    """The thread's current context, made device 0's primary one when there is none."""
    cuda = lib()
    ctx = ctypes.c_void_p()
    _check(cuda.cuCtxGetCurrent(ctypes.byref(ctx)), "cuCtxGetCurrent")
    if not ctx.value:
        _check(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), 0), "cuDevicePrimaryCtxRetain")
        _check(cuda.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    return ctx.value


def current_compute_capability() -> tuple[int, int]:
    cuda = lib()
    dev = ctypes.c_int(0)
    _check(cuda.cuCtxGetDevice(ctypes.byref(dev)), "cuCtxGetDevice")
    out = []
    for attr in (CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR):
        v = ctypes.c_int(0)
        _check(cuda.cuDeviceGetAttribute(ctypes.byref(v), attr, dev.value), "cuDeviceGetAttribute")
        out.append(v.value)
    return out[0], out[1]


def load_module(image: bytes) -> int:
    cuda = lib()
    module = ctypes.c_void_p()
    _check(cuda.cuModuleLoadData(ctypes.byref(module), image), "cuModuleLoadData")
    return module.value


def get_function(module: int, name: str) -> int:
    cuda = lib()
    fn = ctypes.c_void_p()
    _check(cuda.cuModuleGetFunction(ctypes.byref(fn), module, name.encode()), f"cuModuleGetFunction({name})")
    return fn.value


def set_max_dynamic_smem(fn: int, nbytes: int) -> None:
    _check(lib().cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, nbytes),
           "cuFuncSetAttribute")


def max_active_blocks(fn: int, threads: int, smem: int) -> int | None:
    """Blocks of `threads` threads per SM (cuOccupancyMaxActiveBlocksPerMultiprocessor); None
    when the driver cannot say."""
    n = ctypes.c_int(0)
    if lib().cuOccupancyMaxActiveBlocksPerMultiprocessor(ctypes.byref(n), fn, threads, smem):
        return None
    return n.value


_encoder = None


def tensor_map_encoder():
    """cuTensorMapEncodeTiled (CUDA 12.0+), declared, or None where the driver has none (the
    generated launcher's encode_map then gives up too: the kernel copies with cp.async)."""
    global _encoder
    if _encoder is None:
        c = ctypes
        fn = getattr(lib(), "cuTensorMapEncodeTiled", None)
        if fn is None:
            _encoder = False
        else:
            fn.argtypes = [c.c_void_p, c.c_int, c.c_uint32, c.c_void_p, c.POINTER(c.c_uint64),
                           c.POINTER(c.c_uint64), c.POINTER(c.c_uint32), c.POINTER(c.c_uint32),
                           c.c_int, c.c_int, c.c_int, c.c_int]
            fn.restype = c.c_int
            _encoder = fn
    return _encoder or None


def encode_tensor_map(data_type: int, rank: int, address: int, dims, strides, box, element_strides,
                      interleave: int, swizzle: int, l2_promotion: int, oob_fill: int):
    """(CUDA error, the 128 bytes of the CUtensorMap) from cuTensorMapEncodeTiled, its arguments
    innermost axis first; error -1 where the driver has no such function."""
    fn = tensor_map_encoder()
    if fn is None:
        return -1, bytes(128)
    c = ctypes
    # CUtensorMap is 64-byte aligned (cuda.h); the struct around it here, 128.
    raw = c.create_string_buffer(128 + 127)
    at = (c.addressof(raw) + 127) // 128 * 128
    rc = fn(at, data_type, rank, address, (c.c_uint64 * rank)(*dims),
            (c.c_uint64 * max(rank - 1, 1))(*strides), (c.c_uint32 * rank)(*box),
            (c.c_uint32 * rank)(*element_strides), interleave, swizzle, l2_promotion, oob_fill)
    return rc, c.string_at(at, 128)


def upload_table(data: bytes, stream: int) -> tuple[int, int]:
    """(CUDA error, device pointer): `data` copied to memory allocated in stream order on
    `stream`, as the generated launcher's DeviceTable does for list tables. The copy is from
    pageable memory, so `data` may go away as soon as this returns."""
    cuda = lib()
    dptr = ctypes.c_uint64(0)
    rc = cuda.cuMemAllocAsync(ctypes.byref(dptr), len(data), stream)
    if rc:
        return rc, 0
    rc = cuda.cuMemcpyHtoDAsync_v2(dptr.value, data, len(data), stream)
    if rc:
        cuda.cuMemFreeAsync(dptr.value, stream)
        return rc, 0
    return 0, dptr.value


def free_table(dptr: int, stream: int) -> None:
    """Frees an upload_table allocation after the stream's work so far (the kernel's)."""
    lib().cuMemFreeAsync(dptr, stream)
