"""NVRTC through ctypes: a generated .cu's device code compiled in process to a cubin or PTX.

The generated file keeps its host launchers and C entries behind `#if !defined(__CUDACC_RTC__)`,
so the same file that nvcc builds whole is NVRTC's input; NVRTC sees only the kernels and the
runtime's device code. Nothing here needs a GPU: NVRTC compiles for an architecture it is told.

The launcher's fast path (issue 29) compiles with it (_nvrtc_build), and tests/nvrtc/ proves
every sample's generated file with it.
"""
from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass, field
from pathlib import Path


class NvrtcUnavailable(RuntimeError):
    """libnvrtc could not be loaded."""


class NvrtcError(RuntimeError):
    """NVRTC refused the program; `log` is its compile log."""

    def __init__(self, message: str, log: str):
        super().__init__(f"{message}\n{log}" if log else message)
        self.log = log


@dataclass
class Compiled:
    image: bytes                 # cubin for sm_XX, PTX for compute_XX
    log: str                     # warnings, when any
    lowered: dict[str, str] = field(default_factory=dict)  # name expression -> mangled name
    seconds: float = 0.0


def _candidates(cuda_home: Path | None) -> list[str]:
    names = ["libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"]
    homes = [cuda_home] if cuda_home else []
    homes += [Path(h) for h in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH")) if h]
    homes.append(Path("/usr/local/cuda"))
    for home in homes:
        names += [str(home / lib / "libnvrtc.so") for lib in ("lib64", "targets/x86_64-linux/lib")]
    return names


_lib = None


def load(cuda_home: Path | None = None):
    """The NVRTC library, loaded once: the loader's own search first, then the usual toolkit homes."""
    global _lib
    if _lib is not None:
        return _lib
    for name in _candidates(cuda_home):
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            continue
        _declare(lib)
        _lib = lib
        return lib
    raise NvrtcUnavailable("libnvrtc not found (set CUDA_HOME or put the toolkit's lib64 on LD_LIBRARY_PATH)")


def _declare(lib) -> None:
    c = ctypes
    prog = c.c_void_p
    lib.nvrtcGetErrorString.restype = c.c_char_p
    lib.nvrtcGetErrorString.argtypes = [c.c_int]
    lib.nvrtcCreateProgram.argtypes = [c.POINTER(prog), c.c_char_p, c.c_char_p, c.c_int,
                                       c.POINTER(c.c_char_p), c.POINTER(c.c_char_p)]
    lib.nvrtcDestroyProgram.argtypes = [c.POINTER(prog)]
    lib.nvrtcAddNameExpression.argtypes = [prog, c.c_char_p]
    lib.nvrtcCompileProgram.argtypes = [prog, c.c_int, c.POINTER(c.c_char_p)]
    lib.nvrtcGetProgramLogSize.argtypes = [prog, c.POINTER(c.c_size_t)]
    lib.nvrtcGetProgramLog.argtypes = [prog, c.c_char_p]
    for what in ("CUBIN", "PTX"):
        getattr(lib, f"nvrtcGet{what}Size").argtypes = [prog, c.POINTER(c.c_size_t)]
        getattr(lib, f"nvrtcGet{what}").argtypes = [prog, c.c_char_p]
    lib.nvrtcGetLoweredName.argtypes = [prog, c.c_char_p, c.POINTER(c.c_char_p)]
    lib.nvrtcVersion.argtypes = [c.POINTER(c.c_int), c.POINTER(c.c_int)]


def version(cuda_home: Path | None = None) -> tuple[int, int]:
    lib = load(cuda_home)
    major, minor = ctypes.c_int(0), ctypes.c_int(0)
    lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
    return major.value, minor.value


def include_dirs(cuda_home: Path) -> list[Path]:
    """Where NVRTC finds cuda_fp16.h and friends, and libcu++/CUB (CUDA 13 keeps them in cccl/)."""
    inc = cuda_home / "include"
    return [d for d in (inc / "cccl", inc) if d.is_dir()]


def compile_source(source: str, name: str, arch: str, options: list[str] = (),
                   name_expressions: list[str] = (), cuda_home: Path | None = None) -> Compiled:
    """Compiles `source` for `arch` ("sm_90a": a cubin; "compute_80": PTX). Name expressions
    (e.g. "&ns::kernel<true>") are instantiated and come back lowered (mangled), for
    cuModuleGetFunction. Raises NvrtcError with the log when the program does not compile.

    NVRTC releases no lock of Python's: call it from threads to compile several programs at once."""
    import time

    lib = load(cuda_home)
    prog = ctypes.c_void_p()
    check = _checker(lib)
    check(lib.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), name.encode(), 0, None, None),
          "nvrtcCreateProgram")
    try:
        for expr in name_expressions:
            check(lib.nvrtcAddNameExpression(prog, expr.encode()), "nvrtcAddNameExpression")
        opts = [f"--gpu-architecture={arch}", *options]
        argv = (ctypes.c_char_p * len(opts))(*[o.encode() for o in opts])
        start = time.perf_counter()
        status = lib.nvrtcCompileProgram(prog, len(opts), argv)
        seconds = time.perf_counter() - start
        log = _log(lib, prog)
        if status != 0:
            raise NvrtcError(f"NVRTC could not compile {name} for {arch} "
                             f"({lib.nvrtcGetErrorString(status).decode()})", log)
        what = "CUBIN" if arch.startswith("sm_") else "PTX"
        size = ctypes.c_size_t(0)
        check(getattr(lib, f"nvrtcGet{what}Size")(prog, ctypes.byref(size)), f"nvrtcGet{what}Size")
        buf = ctypes.create_string_buffer(size.value)
        check(getattr(lib, f"nvrtcGet{what}")(prog, buf), f"nvrtcGet{what}")
        lowered = {}
        for expr in name_expressions:
            out = ctypes.c_char_p()
            check(lib.nvrtcGetLoweredName(prog, expr.encode(), ctypes.byref(out)), "nvrtcGetLoweredName")
            lowered[expr] = out.value.decode()
        return Compiled(buf.raw, log, lowered, seconds)
    finally:
        lib.nvrtcDestroyProgram(ctypes.byref(prog))


def _checker(lib):
    def check(status: int, call: str) -> None:
        if status != 0:
            raise NvrtcError(f"{call}: {lib.nvrtcGetErrorString(status).decode()}", "")
    return check


def _log(lib, prog) -> str:
    size = ctypes.c_size_t(0)
    if lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size)) != 0 or size.value <= 1:
        return ""
    buf = ctypes.create_string_buffer(size.value)
    lib.nvrtcGetProgramLog(prog, buf)
    return buf.value.decode(errors="replace")
