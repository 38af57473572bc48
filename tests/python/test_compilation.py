"""`cuda.tile.compilation`: signatures (constraints, calling conventions, inference from launch
arguments) and export_kernel (transpile to .cu without a GPU; cubin and PTX need only nvcc)."""

import io
import re
import subprocess

import pytest

import cuda.tile as ct
import kernels
from compilation_kernels import (bad_rank, duplicate_stride_axis, load_static_shaped, one_array,
                                 shape_and_stride, shape_dim0, stride_dim0, two_arrays)
from conftest import nvcc_available
from cuda.tile import compilation as cc
from tile2cu import _build, _export

V1 = cc.CallingConvention.cutile_python_v1()
V2 = cc.CallingConvention.cutile_python_v2()
needs_nvcc = pytest.mark.skipif(not nvcc_available(), reason="nvcc not found")


def array(dtype=ct.float32, ndim=1, **kw):
    args = dict(index_dtype=ct.int32, stride_lower_bound_incl=0, alias_groups=(),
                may_alias_internally=False)
    return cc.ArrayConstraint(dtype, ndim, **{**args, **kw})


# ---- calling conventions and constraints -------------------------------------------------------

def test_calling_conventions():
    assert (V1.name, V1.code, V1.version) == ("cutile_python_v1", "t1", 1)
    assert (V2.name, V2.code, V2.version) == ("cutile_python_v2", "t2", 2)
    assert cc.CallingConvention.from_code("t2") == V2 != V1
    with pytest.raises(ValueError, match="Unknown calling convention code 'zz'"):
        cc.CallingConvention.from_code("zz")
    from cuda.tile._cext import CallingConvention   # where cuTile's tests import it from
    assert CallingConvention is cc.CallingConvention


def test_array_constraint_normalizes_per_axis_fields():
    a = array(ndim=2, stride_constant=(None, 1), stride_divisible_by=(4, 1), shape_divisible_by=2)
    assert a.stride_lower_bound_incl == (0, None)   # a known stride needs no bound
    assert a.stride_divisible_by == (4, 1)          # nor a divisibility
    assert a.shape_constant == (None, None) and a.shape_divisible_by == (2, 2)
    assert a == array(ndim=2, stride_constant=(None, 1), stride_divisible_by=(4, 1),
                      shape_divisible_by=(2, 2))


def test_array_constraint_rejects_conflicts():
    # cuTile's test_array.py::test_array_constraint_rejects_conflicting_stride_constant
    with pytest.raises(ValueError, match=r"stride_constant\[1\].*not divisible by 4"):
        array(ndim=2, stride_constant=(None, 1), stride_divisible_by=(1, 4))
    with pytest.raises(ValueError, match=r"stride_lower_bound_incl\[0\] is set to -1"):
        array(stride_constant=(-1,))
    with pytest.raises(ValueError, match="Length of `shape_constant`"):
        array(ndim=2, shape_constant=(4,))
    with pytest.raises(TypeError, match="Expected a DType"):
        array(dtype="float32")
    with pytest.raises(ValueError, match="index_dtype"):
        array(index_dtype=ct.int16)


def test_signature_checks_alias_groups_and_convention():
    with pytest.raises(ValueError, match="mentioned only once"):
        cc.KernelSignature([array(alias_groups=("g",)), array()], V1)
    cc.KernelSignature([array(alias_groups=("g",)), array(alias_groups=("g",))], V1)
    with pytest.raises(ValueError, match="Static array shapes .* cutile_python_v1"):
        cc.KernelSignature([array(shape_constant=(4,))], V1)
    with pytest.raises(ValueError, match="Tuple parameters .* cutile_python_v1"):
        cc.KernelSignature([(1, 2)], V1)
    sig = cc.KernelSignature([array(), 3, (1, 2.0)], V2, symbol="s")
    assert sig.parameters[1] == cc.ConstantConstraint(3) != cc.ConstantConstraint(3.0)
    assert sig.parameters[2] == cc.TupleConstraint([cc.ConstantConstraint(1), 2.0])
    assert sig.with_symbol("t").symbol == "t" and sig.symbol == "s"


@pytest.mark.parametrize("params,cconv,symbol", [
    # symbols real cuTile 1.7's mangle_kernel_name gives for the same signatures
    ([array(ndim=2, stride_constant=(None, 1), stride_divisible_by=(8, 1),
            base_addr_divisible_by=16)], V1, "k_Kt1_A2f32_1v8l0_2t1_p16"),
    ([array(ct.float16, 3, shape_constant=(48, None, 1), stride_constant=(None, 7, 1),
            stride_divisible_by=(8, 1, 1), shape_divisible_by=(1, 4, 1),
            stride_lower_bound_incl=(-3, 0, None), base_addr_divisible_by=16,
            may_alias_internally=True)], V2, "k_Kt2_A3f16_1s48v8l_3_2i4t7_4s1t1_p16i"),
    ([array(ndim=2, alias_groups=("x", "y")), array(ndim=2, alias_groups=("y",)),
      array(ndim=2, alias_groups=("x",), index_dtype=ct.int64)], V1,
     "k_Kt1_A2f32_3l0_g0g1_A2f32_3l0_g1_A2f32_3l0_g0w"),
    ([cc.ScalarConstraint(ct.int64), True, -17, 0.5, -0.0], V1,
     "k_Kt1_Si64_B1_I_17_F3fe0000000000000_F8000000000000000"),
    ([(1, (2.5, True)), (array(ct.bfloat16), cc.ScalarConstraint(ct.float32))], V2,
     "k_Kt2_T2I1T2F4004000000000000B1_T2A1bf16_1l0Sf32"),
    ([cc.ListConstraint(array(ct.uint8, alias_groups=("e",)), alias_groups=(),
                        elements_may_alias=True), array(ndim=2, alias_groups=("e",))], V2,
     "k_Kt2_LiA1u8_1l0_g0_A2f32_3l0_g0"),
])
def test_symbols_are_mangled_as_cutile_does(params, cconv, symbol):
    sig = cc.KernelSignature(params, cconv)
    assert cc.mangle_kernel_name("k", sig) == symbol
    assert sig.with_mangled_symbol("k").symbol == symbol
    name, back = cc.demangle_kernel_name(symbol)
    assert (name, back.calling_convention, back.symbol) == ("k", cconv, symbol)
    assert cc.mangle_kernel_name("k", back) == symbol   # alias groups come back renamed
    if "g0" not in symbol:
        assert back.parameters == sig.parameters


@pytest.mark.parametrize("symbol", [
    # symbols real cuTile 1.7's demangle_kernel_name refuses too
    "kern", "kern_Kt9_A1f32", "kern_Kt1_A1f33", "kern_Kt1_A1f32_2t1", "kern_Kt1_A1f32_1v1",
    "kern_Kt1_A1f32_1t1v4", "kern_Kt1_A1f32_1l0_g0", "kern_Kt1_A1f32_1l0_g1_A1f32_1l0_g0",
    "kern_Kt1_A2f32_1t1_1t2", "kern_Kt1_Q", "kern_Kt1_B2", "kern_Kt1_F3fe00", "kern_Kt2_T3I1I2"])
def test_bad_symbols_do_not_demangle(symbol):
    with pytest.raises(ValueError):
        cc.demangle_kernel_name(symbol)


# ---- from_kernel_args --------------------------------------------------------------------------

def test_inferred_array_constraint(fake_array):
    # cuTile's test_array.py::test_static_shape_constraint_values
    x, out = fake_array((48, 32), "<f2"), fake_array((16, 16), "<f2", ptr=0x7F0000100000)
    sig = cc.KernelSignature.from_kernel_args(load_static_shaped, (x, out), V2)
    # the symbol real cuTile 1.7 mangles for these constraints
    assert sig.symbol == "load_static_shaped_Kt2_A2f16_1s48v8l0_2s32t1_p16_A2f16_1v8l0_2t1_p16"
    c = sig.parameters[0]
    assert c.shape_constant == (48, 32)
    assert c.stride_constant == (None, 1)
    assert c.stride_divisible_by == (8, 1)    # 32 float16 elements: 64 bytes
    assert c.may_alias_internally is False
    assert c.base_addr_divisible_by == 16
    assert c.index_dtype == ct.int32 and c.alias_groups == ()
    assert sig.parameters[1].shape_constant == (None, None)


def test_singleton_extents_follow_the_convention(fake_array):
    x = fake_array((8, 1))
    assert cc.KernelSignature.from_kernel_args(one_array, (x,), V1).parameters[0].shape_constant \
        == (None, None)
    assert cc.KernelSignature.from_kernel_args(one_array, (x,), V2).parameters[0].shape_constant \
        == (None, 1)
    # naming static axes turns the inference off
    assert cc.KernelSignature.from_kernel_args(shape_dim0, (x,), V2).parameters[0].shape_constant \
        == (8, None)


def test_static_strides(fake_array):
    x = fake_array((4, 8), strides=(40, 4))     # a (4, 10) array's first 8 columns
    out = fake_array((4, 4), ptr=0x7F0000100000)
    c = cc.KernelSignature.from_kernel_args(shape_and_stride, (x, out), V2).parameters[0]
    assert (c.shape_constant, c.stride_constant) == ((4, None), (10, None))
    # listing strides drops the inferred unit last stride
    sig = cc.KernelSignature.from_kernel_args(stride_dim0, (fake_array((4, 8)), out), V2)
    assert sig.parameters[0].stride_constant == (8, None)
    with pytest.raises(ValueError, match="duplicate axis"):
        cc.KernelSignature.from_kernel_args(duplicate_stride_axis, (x,), V2)


def test_aliasing_is_inferred_from_the_memory(fake_array):
    base = 0x7F0000000000
    broadcast = fake_array((4, 8), strides=(4, 0))
    c = cc.KernelSignature.from_kernel_args(one_array, (broadcast,), V2).parameters[0]
    assert c.may_alias_internally is True
    x, y = fake_array((16,), ptr=base), fake_array((16,), ptr=base + 32)   # overlapping views
    a, b = cc.KernelSignature.from_kernel_args(two_arrays, (x, y), V2).parameters
    assert a.alias_groups == b.alias_groups and len(a.alias_groups) == 1
    y = fake_array((16,), ptr=base + 64)
    a, b = cc.KernelSignature.from_kernel_args(two_arrays, (x, y), V2).parameters
    assert a.alias_groups == b.alias_groups == ()


def test_scalars_constants_and_lists(fake_array):
    args = (fake_array((8,)), True, 7, 2**40, 0.5, (64, 128), 3)
    sig = cc.KernelSignature.from_kernel_args(kernels.everything, args, V2)
    assert sig.parameters[1:] == (
        cc.ScalarConstraint(ct.bool_), cc.ScalarConstraint(ct.int32), cc.ScalarConstraint(ct.int64),
        cc.ScalarConstraint(ct.float32), cc.TupleConstraint([64, 128]), cc.ConstantConstraint(3))
    xs = [fake_array((8,)), fake_array((4,), ptr=0x7F0000100000)]
    ys = [fake_array((8,), ptr=0x7F0000200000), fake_array((4,), ptr=0x7F0000300000)]
    sig = cc.KernelSignature.from_kernel_args(kernels.grouped_scale, (xs, ys, 2.0, 64), V1)
    assert isinstance(sig.parameters[0], cc.ListConstraint)
    assert sig.parameters[0].element.stride_constant == (1,)
    assert sig.parameters[0].elements_may_alias is False
    assert sig.parameters[0].element.alias_groups == sig.parameters[1].element.alias_groups == ()
    # a list whose elements overlap each other, and one of them another list's element
    xs = [fake_array((8,)), fake_array((8,), ptr=0x7F0000000010)]
    ys = [fake_array((8,), ptr=0x7F0000000010), fake_array((4,), ptr=0x7F0000300000)]
    xs_c, ys_c = cc.KernelSignature.from_kernel_args(kernels.grouped_scale, (xs, ys, 2.0, 64),
                                                     V1).parameters[:2]
    assert xs_c.elements_may_alias is True and ys_c.elements_may_alias is False
    assert xs_c.element.alias_groups == ys_c.element.alias_groups != ()
    assert xs_c.alias_groups == ys_c.alias_groups == ()   # the lists' own tables alias nothing


def test_bad_arguments_raise_as_at_launch(fake_array):
    with pytest.raises(TypeError, match="Kernel expects 2 arguments but 1 was given"):
        cc.KernelSignature.from_kernel_args(two_arrays, (fake_array((8,)),), V2)
    with pytest.raises(ValueError, match="does not fit in int32"):
        cc.KernelSignature.from_kernel_args(kernels.everything,
                                            (fake_array((8,)), True, 2**31, 1, 0.5, (1,), 1), V2)


# ---- signatures as tile2cu's text --------------------------------------------------------------

def test_signature_text(fake_array):
    x, out = fake_array((48, 32), "<f2"), fake_array((16, 16), "<f2", ptr=0x7F0000000004)
    sig = cc.KernelSignature.from_kernel_args(load_static_shaped, (x, out), V2)
    assert _export.signature_text(load_static_shaped, sig) == \
        "x=float16[48, 32] align16 contiguous, out=float16[?, ?] contiguous"
    sig = cc.KernelSignature([array(ndim=2, stride_constant=(10, None), base_addr_divisible_by=32),
                              array(ndim=2)], V2)
    assert _export.signature_text(stride_dim0, sig) == \
        "x=float32[?, ?] strides(10, ?) align16, out=float32[?, ?]"


def test_what_tile2cu_cannot_compile_is_named():
    with pytest.raises(ct.TileUnsupportedFeatureError, match="64-bit array indexing"):
        _export.signature_text(one_array, cc.KernelSignature([array(index_dtype=ct.int64)], V1))
    with pytest.raises(ct.TileUnsupportedFeatureError, match="non-negative strides"):
        _export.signature_text(one_array,
                               cc.KernelSignature([array(stride_lower_bound_incl=None)], V1))
    with pytest.raises(TypeError, match="ConstantConstraint"):
        _export.signature_text(kernels.copy, cc.KernelSignature([array(), array(), array()], V1))


# ---- export_kernel -----------------------------------------------------------------------------

def copy_signature(symbol=None):
    return cc.KernelSignature([array(stride_constant=(1,), base_addr_divisible_by=16),
                               array(), 256], V1, symbol=symbol)


def test_export_cu_source(tmp_path):
    out = io.BytesIO()
    cc.export_kernel(kernels.copy, [copy_signature("copy_a"), copy_signature("copy_b")], out,
                     output_format="cu")
    text = out.getvalue().decode()
    assert 'extern "C" int tile2cu_copy_a(' in text and 'extern "C" int tile2cu_copy_b(' in text
    assert "x=float32[?] align16 contiguous, y=float32[?], TILE=256" in text
    assert '#include "kernels.cuh"' not in text    # its header is inlined
    path = tmp_path / "copy.cu"
    cc.export_kernel(kernels.copy, [copy_signature()], str(path), output_format="cu")
    # no symbol: cuTile's mangled name (tile2cu_ + its C++ spelling is the C entry)
    assert 'extern "C" int tile2cu_copy_Kt1_A1f32_1t1_p16_A1f32_1l0_I256(' in path.read_text()


def test_export_refuses_what_it_cannot_honour():
    with pytest.raises(ct.TileUnsupportedFeatureError, match="bytecode_version='13.2'"):
        cc.export_kernel(kernels.copy, [copy_signature()], io.BytesIO(), gpu_code="sm_90",
                         output_format="cubin", bytecode_version="13.2")
    with pytest.raises(ct.TileUnsupportedFeatureError, match="tileir_bytecode"):
        cc.export_kernel(kernels.copy, [copy_signature()], io.BytesIO(), gpu_code="sm_90",
                         output_format="tileir_bytecode")
    with pytest.raises(ValueError, match="gpu_code is required"):
        cc.export_kernel(kernels.copy, [copy_signature()], io.BytesIO(), output_format="cubin")
    with pytest.raises(ValueError, match="Unknown output format 'elf'"):
        cc.export_kernel(kernels.copy, [copy_signature()], io.BytesIO(), gpu_code="sm_90",
                         output_format="elf")
    with pytest.raises(ValueError, match="two signatures export the symbol 's'"):
        cc.export_kernel(kernels.copy, [copy_signature("s"), copy_signature("s")], io.BytesIO(),
                         output_format="cu")


def test_export_raises_cutile_error_classes(fake_array):
    # cuTile's test_typeinfer.py compiles through from_kernel_args and export_kernel
    sig = cc.KernelSignature.from_kernel_args(bad_rank, (fake_array((4, 4)),), V1)
    with pytest.raises(ct.TileTypeError, match=re.escape("Expected shape length to be 2, got 3")):
        cc.export_kernel(bad_rank, [sig], io.BytesIO(), output_format="cu")


@needs_nvcc
def test_export_cubin_and_ptx():
    sigs = [copy_signature("copy_a"), copy_signature("copy_b")]
    cubin = io.BytesIO()
    cc.export_kernel(kernels.copy, sigs, cubin, gpu_code="sm_90", output_format="cubin")
    assert cubin.getvalue().startswith(b"\x7fELF")
    assert b"copy_a" in cubin.getvalue() and b"copy_b" in cubin.getvalue()
    ptx = io.BytesIO()
    cc.export_kernel(kernels.copy, sigs, ptx, gpu_code="sm_90", output_format="ptx")
    text = ptx.getvalue().decode()
    assert ".target sm_90" in text and ".entry" in text and "copy_a" in text


@needs_nvcc
def test_exported_cu_builds_with_the_runtime_headers_alone(tmp_path):
    cu = tmp_path / "exported.cu"
    cc.export_kernel(kernels.copy, [copy_signature("copy_a")], cu, output_format="cu")
    cmd = [str(_build.find_nvcc()), "-std=c++17", "-arch=sm_90", "-I", str(_build.find_runtime()),
           "-c", str(cu), "-o", str(tmp_path / "exported.o")]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0 and "warning" not in r.stderr, r.stderr
