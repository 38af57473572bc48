"""Reading launch arguments: arrays (torch tensors directly, then any object with
`__cuda_array_interface__` or `__dlpack__`: CuPy, Numba, JAX, ...), Python scalars by cuTile's
rules (spec a.3), and streams. Readers are chosen once per Python type and kept, so a warm launch
does no attribute probing."""

from __future__ import annotations

import ctypes
import functools

from . import _dtypes

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


class ArgError(Exception):
    """An argument the launcher rejects: `kind` is the builtin exception class cuTile raises
    (TypeError or ValueError), or a TileError class for what tile2cu does not support."""

    def __init__(self, kind, text):
        super().__init__(text)
        self.kind = kind


# An array reader returns (dtype, shape, strides in elements, data pointer): a plain tuple, as
# this runs on every launch.


@functools.lru_cache(maxsize=1024)   # per shape: arrays without strides are read on every launch
def _contiguous_strides(shape):
    strides, s = [], 1
    for d in reversed(shape):
        strides.append(s)
        s *= d
    return tuple(reversed(strides))


# ---- torch --------------------------------------------------------------------------------------

_TORCH_DTYPES: dict = {}


def _torch_dtype(t):
    dt = _TORCH_DTYPES.get(t.dtype)
    if dt is None:
        dt = _dtypes.from_foreign(t.dtype)
        if dt is None:
            raise ArgError(TypeError, f"unsupported array dtype {t.dtype}")
        _TORCH_DTYPES[t.dtype] = dt
    return dt


def read_torch(t):
    if not t.is_cuda:
        raise ArgError(TypeError, f"the tensor is on {t.device}, not on a CUDA device")
    dt = _TORCH_DTYPES.get(t.dtype) or _torch_dtype(t)
    return dt, t.shape, t.stride(), t.data_ptr()


# ---- __cuda_array_interface__ (CuPy, Numba, ...) ------------------------------------------------

def read_cai(obj):
    cai = obj.__cuda_array_interface__
    dt = _dtypes.from_typestr(cai["typestr"])
    if dt is None:
        raise ArgError(TypeError, f"unsupported array dtype (typestr {cai['typestr']!r})")
    if cai.get("mask") is not None:
        raise ArgError(TypeError, "masked arrays are not supported")
    shape = cai["shape"]
    if type(shape) is not tuple:
        shape = tuple(shape)
    byte_strides = cai.get("strides")
    if byte_strides is None:
        strides = _contiguous_strides(shape)
    else:
        itemsize = dt.itemsize
        strides = []
        for s in byte_strides:
            if s % itemsize:
                raise ArgError(TypeError, f"stride of {s} bytes is not a whole number of "
                                          f"{dt.name} elements")
            strides.append(s // itemsize)
        strides = tuple(strides)
    return dt, shape, strides, cai["data"][0] or 0


# ---- DLPack ------------------------------------------------------------------------------------

class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_DL_CUDA, _DL_CUDA_MANAGED = 2, 13


def read_dlpack(obj):
    device = obj.__dlpack_device__() if hasattr(obj, "__dlpack_device__") else None
    if device is not None and device[0] not in (_DL_CUDA, _DL_CUDA_MANAGED):
        raise ArgError(TypeError, f"the array is not in CUDA memory (DLPack device type {device[0]})")
    try:
        capsule = obj.__dlpack__(stream=-1)   # -1: the producer must not synchronize
    except TypeError:
        capsule = obj.__dlpack__()
    # The capsule keeps its name, so its destructor releases the producer's export; the array
    # itself must outlive the kernel, as with cuTile.
    t = _DLTensor.from_address(_capsule_pointer(capsule, b"dltensor"))
    if t.device.device_type not in (_DL_CUDA, _DL_CUDA_MANAGED):
        raise ArgError(TypeError, "the array is not in CUDA memory")
    if t.dtype.lanes != 1:
        raise ArgError(TypeError, "array dtypes with several lanes are not supported")
    dt = _dtypes.from_dlpack(t.dtype.code, t.dtype.bits)
    if dt is None:
        raise ArgError(TypeError, f"unsupported array dtype (DLPack code {t.dtype.code}, "
                                  f"{t.dtype.bits} bits)")
    shape = tuple(t.shape[k] for k in range(t.ndim))
    strides = (tuple(t.strides[k] for k in range(t.ndim)) if t.strides
               else _contiguous_strides(shape))
    return dt, shape, strides, (t.data or 0) + t.byte_offset


# ---- choosing a reader -------------------------------------------------------------------------

# Argument kinds, as the launcher's binding loop switches on them.
ARRAY, BOOL, INT, FLOAT, LIST, TUPLE, OTHER = range(7)

_kinds: dict[type, tuple[int, object]] = {bool: (BOOL, None), int: (INT, None),
                                          float: (FLOAT, None), list: (LIST, None),
                                          tuple: (TUPLE, None)}


def kind_of(value) -> tuple[int, object]:
    """(kind, array reader) for the value's type; decided once per type."""
    t = type(value)
    k = _kinds.get(t)
    if k is None:
        k = _classify(t, value)
        _kinds[t] = k
    return k


def _classify(t, value):
    module = getattr(t, "__module__", "") or ""
    if module.startswith("torch") and hasattr(value, "data_ptr") and hasattr(value, "stride"):
        return ARRAY, read_torch
    if hasattr(value, "__cuda_array_interface__"):
        return ARRAY, read_cai
    if hasattr(value, "__dlpack__"):
        return ARRAY, read_dlpack
    # Subclasses of the Python scalars (numpy.float64 is a float) follow their base, as in cuTile.
    for base, kind in ((bool, BOOL), (int, INT), (float, FLOAT), (list, LIST), (tuple, TUPLE)):
        if issubclass(t, base):
            return kind, None
    return OTHER, None


# ---- streams -----------------------------------------------------------------------------------

_stream_readers: dict[type, object] = {int: int}


def _numba_handle(s):
    h = s.handle
    return getattr(h, "value", h) or 0


def stream_handle(stream) -> int:
    """The CUstream of a torch / CuPy / Numba / cuda.core stream, or a raw handle (int; 0 is the
    null stream)."""
    reader = _stream_readers.get(type(stream))
    if reader is None:
        reader = _stream_reader(stream)
        _stream_readers[type(stream)] = reader
    return reader(stream)


def _stream_reader(stream):
    if hasattr(stream, "__cuda_stream__"):
        return lambda s: int(s.__cuda_stream__()[1])
    if hasattr(stream, "cuda_stream"):           # torch.cuda.Stream
        return lambda s: int(s.cuda_stream)
    if hasattr(stream, "ptr"):                   # cupy.cuda.Stream
        return lambda s: int(s.ptr)
    if hasattr(stream, "handle"):                # numba.cuda stream (handle: c_void_p)
        return _numba_handle
    if isinstance(stream, int) and not isinstance(stream, bool):
        return int
    raise ArgError(TypeError, f"cannot use a {type(stream).__name__} as a CUDA stream: pass a "
                              "torch, CuPy or Numba stream, or a CUstream handle (int)")
