"""The process a time-limited launch runs in (`single_run_timeout_sec`): it reads one payload
(JSON on standard input, written by _ipc.export_payload), maps the tuning process's arrays
through CUDA IPC, launches the specialization once (its C entry, or for an NVRTC build the
package's launcher from the launch plan) on the null stream between two events, waits, and
prints `{"us": elapsed}`. The tuning process kills it when the limit passes,
so a kernel that never ends does not hang the tuner.

Run as a script by its path: for an nvcc build it imports nothing of tile2cu (the package's
import needs no GPU, but this process should start fast and touch nothing else).
"""

import ctypes
import json
import sys

CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS = 1


class IpcMemHandle(ctypes.Structure):
    _fields_ = [("reserved", ctypes.c_ubyte * 64)]   # not c_char: that would stop at a 0 byte


_SCALAR_TYPES = {"bool": ctypes.c_bool, "int8": ctypes.c_int8, "int16": ctypes.c_int16,
                 "int32": ctypes.c_int32, "int64": ctypes.c_int64, "uint8": ctypes.c_uint8,
                 "uint16": ctypes.c_uint16, "uint32": ctypes.c_uint32,
                 "uint64": ctypes.c_uint64, "float": ctypes.c_float,
                 "double": ctypes.c_double}


def _check(rc, what):
    if rc:
        raise RuntimeError(f"{what} failed with CUDA driver error {rc}")


class _Mapper:
    """Opens each IPC handle once; a pointer is the mapped base plus its offset."""

    def __init__(self, cuda):
        self.cuda, self.bases = cuda, {}

    def pointer(self, ref):
        base = self.bases.get(ref["ipc"])
        if base is None:
            handle = IpcMemHandle()
            ctypes.memmove(ctypes.byref(handle), bytes.fromhex(ref["ipc"]), 64)
            dptr = ctypes.c_uint64()
            _check(self.cuda.cuIpcOpenMemHandle_v2(ctypes.byref(dptr), handle,
                                                    CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS),
                   "cuIpcOpenMemHandle")
            base = self.bases[ref["ipc"]] = dptr.value
        return base + ref["off"]

    def close(self):
        for base in self.bases.values():
            self.cuda.cuIpcCloseMemHandle(ctypes.c_uint64(base))


def _arguments(payload, mapper):
    """(argtypes, values) of the C entry after its stream and grid."""
    types, values = [], []
    for arg in payload["args"]:
        kind = arg["t"]
        if kind == "ptr":
            types.append(ctypes.c_void_p)
            values.append(mapper.pointer(arg))
        elif kind == "words":   # a list's table: int64 words, pointers among them
            words = [mapper.pointer(w) if isinstance(w, dict) else w for w in arg["v"]]
            types.append(ctypes.POINTER(ctypes.c_int64))
            values.append((ctypes.c_int64 * len(words))(*[ctypes.c_int64(w).value
                                                           for w in words]))
        else:
            types.append(_SCALAR_TYPES[arg["c"]])
            values.append(arg["v"])
    return types, values


def _nvrtc_entry(where):
    """An NVRTC-built specialization has no C entry: its launch is the package's Python code
    (the launch plan), imported here from where the tuning process found it."""
    sys.path.insert(0, where["package_root"])
    from pathlib import Path

    from tile2cu import _nvrtc_build
    return _nvrtc_build.load_entry(Path(where["folder"]))


def main():
    payload = json.loads(sys.stdin.read())
    cuda = ctypes.CDLL("libcuda.so.1")
    _check(cuda.cuInit(0), "cuInit")
    device, ctx = ctypes.c_int(), ctypes.c_void_p()
    _check(cuda.cuDeviceGet(ctypes.byref(device), payload["device"]), "cuDeviceGet")
    _check(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), device), "cuDevicePrimaryCtxRetain")
    cuda.cuCtxSetCurrent.argtypes = [ctypes.c_void_p]
    _check(cuda.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    cuda.cuIpcCloseMemHandle.argtypes = [ctypes.c_uint64]
    cuda.cuIpcOpenMemHandle_v2.argtypes = [ctypes.POINTER(ctypes.c_uint64), IpcMemHandle,
                                           ctypes.c_uint]   # the handle goes by value
    mapper = _Mapper(cuda)
    try:
        types, values = _arguments(payload, mapper)
        if "nvrtc" in payload:
            entry = _nvrtc_entry(payload["nvrtc"])
        else:
            entry = getattr(ctypes.CDLL(payload["lib"], mode=ctypes.RTLD_LOCAL), payload["entry"])
            entry.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint] + types
            entry.restype = ctypes.c_int
        cuda.cuEventRecord.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        cuda.cuEventSynchronize.argtypes = [ctypes.c_void_p]
        cuda.cuEventElapsedTime.argtypes = [ctypes.POINTER(ctypes.c_float), ctypes.c_void_p,
                                            ctypes.c_void_p]
        start, end = ctypes.c_void_p(), ctypes.c_void_p()
        _check(cuda.cuEventCreate(ctypes.byref(start), 0), "cuEventCreate")
        _check(cuda.cuEventCreate(ctypes.byref(end), 0), "cuEventCreate")
        _check(cuda.cuEventRecord(start, None), "cuEventRecord")
        rc = entry(None, *payload["grid"], *values)
        if rc:
            raise RuntimeError(f"the kernel's launcher answered CUDA runtime error {rc}")
        _check(cuda.cuEventRecord(end, None), "cuEventRecord")
        _check(cuda.cuEventSynchronize(end), "cuEventSynchronize (the kernel's run)")
        ms = ctypes.c_float()
        _check(cuda.cuEventElapsedTime(ctypes.byref(ms), start, end), "cuEventElapsedTime")
    finally:
        mapper.close()
    print(json.dumps({"us": ms.value * 1000.0}))


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # noqa: BLE001 - reported to the tuning process, which raises it
        print(json.dumps({"error": f"{type(e).__name__}: {e}"}))
        sys.exit(1)
