"""cuTile's test_typeinfer.py, test_constfold.py and test_cast.py kernels whose errors the
launcher must raise as cuTile's classes with cuTile's words (transpiler only, no GPU): the
kernels are our own, shaped like the upstream tests each names."""

import re

import pytest

import tile2cu.cutile as ct
from tile2cu import _errors
from test_synthesize import transpile


def test_calls_device_code_cannot_make_are_unsupported_call_errors(cache_dir, tmp_path):
    # test_unsupported_builtin_function, test_unsupported_class_constructor: cuTile's
    # UnsupportedCallError, a TileError but not a TileUnsupportedFeatureError.
    class Widget:
        pass

    @ct.kernel
    def builtin():
        exec("x = 1")

    @ct.kernel
    def constructor():
        Widget()

    with pytest.raises(_errors.UnsupportedCallError, match=re.escape("exec() is not supported in device code")) as e:
        transpile(builtin, (), tmp_path)
    assert not isinstance(e.value, _errors.TileUnsupportedFeatureError)
    with pytest.raises(_errors.UnsupportedCallError,
                       match=re.escape('Creating instances of type "Widget" is not supported in device code')):
        transpile(constructor, (), tmp_path)


def test_a_python_number_keeps_its_type_where_paths_meet(cache_dir, tmp_path, fake_array):
    # test_control_flow_type_mismatch[kernel_while_loop_result_type_mismatch]: two breaks bind
    # a float and an int.
    @ct.kernel
    def two_breaks(out):
        n = 0
        while True:
            n += 2
            if n >= 8:
                v = 1.5
                break
            elif n >= ct.bid(0):
                v = 7
                break
        ct.store(out, (0,), v)

    with pytest.raises(ct.TileTypeError, match=re.escape("Type of `v` depends on path taken")):
        transpile(two_breaks, (fake_array((1,), "<f4"),), tmp_path)


def test_float8_e8m0fnu_constants_and_conversions(cache_dir, tmp_path, fake_array):
    # test_strictly_typed_float_constant_rounding, ..._unsigned_float_constant_from_negative,
    # test_cast.py::test_reject_astype_rounding_mode_from_float8_e8m0fnu
    @ct.kernel
    def rounds(x):
        ct.scatter(x, 0, ct.float64(ct.float8_e8m0fnu(0.4)))

    @ct.kernel
    def negative():
        ct.float8_e8m0fnu(-1.5)

    scale = ct.float8_e8m0fnu

    @ct.kernel
    def directed(y):
        t = ct.ones((2,), dtype=scale).astype(ct.float32, rounding_mode=ct.RoundingMode.RP)
        ct.store(y, index=(0,), tile=t)

    assert "__nv_fp8_e8m0(0.5f)" in transpile(rounds, (fake_array((1,), "<f8"),), tmp_path)
    with pytest.raises(ct.TileValueError, match="Negative values cannot be represented in an unsigned float format"):
        transpile(negative, (), tmp_path)
    with pytest.raises(ct.TileTypeError, match=f"rounding_mode={ct.RoundingMode.RP} is not supported for "
                                               f"conversion from {scale} to {ct.float32}"):
        transpile(directed, (fake_array((2,), "<f4"),), tmp_path)
