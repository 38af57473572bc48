"""The ctypes argument types a specialization's C entry is called with.

ctypes converts a Python int for a `c_void_p` parameter in C, but for `c_int64`, `c_uint`,
`c_int32` or `c_bool` through a lookup of the type's format on every argument: about twice the
time (0.1 against 0.22 us an argument, measured with tests/gpu/bench_launch_overhead.py's stub),
and an entry takes 3 arguments per array. Where the C calling convention passes every integer
argument of 8 bytes or less in its own 64-bit register or 8-byte stack slot, low bytes first
(x86-64 System V and Windows, AArch64 Linux), a 64-bit value holding the same integer is the
same call: so there every integer parameter is declared `c_void_p`. The launcher has checked
each value's range before (int32 scalars, grid dims; shapes and strides are int64 in C).
Floats keep their types: they travel in other registers. tests/python/test_call_abi.py calls
a C function of each kind through these types.
"""

from __future__ import annotations

import ctypes
import platform
import sys

_INTEGER_TYPES = (ctypes.c_void_p, ctypes.c_bool, ctypes.c_int8, ctypes.c_int16, ctypes.c_int32,
                  ctypes.c_int64, ctypes.c_uint8, ctypes.c_uint16, ctypes.c_uint32,
                  ctypes.c_uint64)

_WIDE_SLOTS = (ctypes.sizeof(ctypes.c_void_p) == 8 and sys.byteorder == "little"
               and platform.machine().lower() in ("x86_64", "amd64", "aarch64", "arm64")
               and not sys.platform == "darwin")   # Apple's AArch64 packs stack arguments


def entry_argtypes(argtypes: list) -> list:
    """`argtypes` (the C entry's parameter types) as the entry is called with."""
    if not _WIDE_SLOTS:
        return list(argtypes)
    return [ctypes.c_void_p if t in _INTEGER_TYPES else t for t in argtypes]
