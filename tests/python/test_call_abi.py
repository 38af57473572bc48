"""_call_abi: a C function with every kind of parameter a specialization's entry has, called
through the argument types the launcher declares, receives each value exactly, also past the
registers (on the stack)."""

import ctypes
import shutil
import subprocess

import pytest

from tile2cu import _call_abi

C_SOURCE = r"""
#include <stdbool.h>
#include <stdint.h>
long long seen_int[16];
double seen_float[4];
int probe(void* stream, unsigned gx, unsigned gy, unsigned gz, void* data, int64_t shape,
          int64_t stride, int32_t count, bool flag, float ratio, int64_t wide, void* data2,
          int32_t negative, unsigned big, bool off, double precise, int64_t last) {
  long long v[] = {(long long)(intptr_t)stream, gx, gy, gz, (long long)(intptr_t)data, shape,
                   stride, count, flag, wide, (long long)(intptr_t)data2, negative, big, off, last};
  for (int i = 0; i < 15; ++i) seen_int[i] = v[i];
  seen_float[0] = ratio;
  seen_float[1] = precise;
  return 7;
}
"""

ARGTYPES = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint, ctypes.c_void_p,
            ctypes.c_int64, ctypes.c_int64, ctypes.c_int32, ctypes.c_bool, ctypes.c_float,
            ctypes.c_int64, ctypes.c_void_p, ctypes.c_int32, ctypes.c_uint, ctypes.c_bool,
            ctypes.c_double, ctypes.c_int64]
VALUES = [0x7F00DEAD0000, 2**24 - 1, 65535, 1, 0x7F0000000010, 2**40 + 3, 1, 2**31 - 1, True,
          0.5, -(2**63), 0x7F0000000020, -(2**31), 2**32 - 1, False, 0.1, 2**63 - 1]


@pytest.mark.skipif(not shutil.which("cc"), reason="no C compiler")
def test_entry_receives_every_value_through_the_declared_types(tmp_path):
    (tmp_path / "probe.c").write_text(C_SOURCE)
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", str(tmp_path / "probe.so"),
                    str(tmp_path / "probe.c")], check=True)
    lib = ctypes.CDLL(str(tmp_path / "probe.so"))
    probe = lib["probe"]
    probe.argtypes = _call_abi.entry_argtypes(ARGTYPES)
    probe.restype = ctypes.c_int
    assert probe(*VALUES) == 7
    ints = [v for v, t in zip(VALUES, ARGTYPES) if t not in (ctypes.c_float, ctypes.c_double)]
    assert list((ctypes.c_longlong * 15).in_dll(lib, "seen_int")) == [int(v) for v in ints]
    assert list((ctypes.c_double * 2).in_dll(lib, "seen_float")) == [0.5, 0.1]


def test_integer_parameters_are_declared_as_64_bit_slots_only_where_that_is_the_same_call():
    mapped = _call_abi.entry_argtypes(ARGTYPES)
    if _call_abi._WIDE_SLOTS:
        assert mapped == [t if t in (ctypes.c_float, ctypes.c_double) else ctypes.c_void_p
                          for t in ARGTYPES]
    else:
        assert mapped == ARGTYPES
    pointer = ctypes.POINTER(ctypes.c_int64)   # a list's table stays what it is
    assert _call_abi.entry_argtypes([pointer]) == [pointer]
