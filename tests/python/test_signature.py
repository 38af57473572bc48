"""Signature derivation: what the launcher tells the transpiler for given arguments (spec a.3:
arrays by dtype/rank/facts, Python scalars by cuTile's rules, Constants by value)."""

from typing import Annotated

import pytest

import kernels
import tile2cu.cutile as ct
from tile2cu import _args, _kernel
from tile2cu._args import ArgError


def signature(k, args):
    bound = _kernel._Bound()
    _kernel._bind(k, args, bound)
    return ", ".join(bound.constraints), bound


def test_arrays_constants(fake_array):
    sig, bound = signature(kernels.copy, (fake_array((1000,)), fake_array((1000,)), 256))
    assert sig == "x=float32[?] align16 contiguous, y=float32[?] align16 contiguous, TILE=256"
    # stream, grid x/y/z, then per array: pointer, shape, stride
    assert len(bound.argtypes) == 4 + 3 + 3


@pytest.mark.parametrize("typestr,name", [("<f2", "float16"), ("<f8", "float64"), ("|i1", "int8"),
                                          ("<i8", "int64"), ("|u1", "uint8"), ("|b1", "bool"),
                                          ("<u4", "uint32")])
def test_array_dtypes(fake_array, typestr, name):
    sig, _ = signature(kernels.copy, (fake_array((4, 8), typestr), fake_array((3,)), 16))
    assert sig.startswith(f"x={name}[?, ?] align16 contiguous, ")


def test_facts_follow_pointer_and_strides(fake_array):
    unaligned = fake_array((100,), ptr=0x7F0000000004)
    strided = fake_array((10, 10), strides=(4, 40))          # a transposed view, bytes
    sig, _ = signature(kernels.copy, (unaligned, strided, 64))
    assert sig == "x=float32[?] contiguous, y=float32[?, ?] align16, TILE=64"


def test_python_scalars_follow_cutile_rules(fake_array):
    args = (fake_array((8,)), True, 7, 2**40, 0.5, (64, 128), 3)
    sig, bound = signature(kernels.everything, args)
    assert sig == ("a=float32[?] align16 contiguous, flag=bool, count=int32, wide=int64, "
                   "ratio=float32, SHAPE=(64, 128), F=3")


def test_constant_literals_are_exact(fake_array):
    sig, _ = signature(kernels.everything, (fake_array((8,)), False, -5, 1, 1e-5, (0.1,), True))
    assert sig.endswith("flag=bool, count=int32, wide=int64, ratio=float32, SHAPE=(0.1,), F=True")


def test_constant_values_are_part_of_the_key(fake_array):
    x, y = fake_array((8,)), fake_array((8,))
    keys = {_kernel._bind(kernels.copy, (x, y, v), None)[0] for v in (1, 1.0, True, 2)}
    assert len(keys) == 4   # 1, 1.0 and True compare equal in Python but compile differently


def test_int_scalar_range(fake_array):
    with pytest.raises(ArgError, match="does not fit in int32") as e:
        signature(kernels.everything, (fake_array((8,)), True, 2**31, 1, 0.5, (1,), 1))
    assert e.value.kind is ValueError


@pytest.mark.parametrize("bad,kind,text", [
    (None, TypeError, "None is not an array"),
    ("text", TypeError, "object of type str"),
    ([1, 2], TypeError, "item 0 of the list is an object of type int, not an array"),
    ([], TypeError, "an empty list of arrays"),
    ((1, None), TypeError, "None is not an array"),
])
def test_bad_argument_kinds(fake_array, bad, kind, text):
    with pytest.raises(ArgError, match=text) as e:
        signature(kernels.copy, (fake_array((8,)), bad, 64))
    assert e.value.kind is kind
    assert "Invalid kernel argument #2 (y)" in str(e.value)


def test_tuple_arguments_pass_their_leaves(fake_array):
    # A tuple of arrays, scalars and tuples (cuTile 1.5): the signature keeps its shape, the C
    # entry takes its leaves in order.
    pair = (fake_array((8,)), (fake_array((4, 4), "<f2"), 3))
    sig, bound = signature(kernels.copy, (fake_array((8,)), pair, 64))
    assert sig == ("x=float32[?] align16 contiguous, "
                   "y=(float32[?] align16 contiguous, (float16[?, ?] align16 contiguous, int32)), TILE=64")
    assert len(bound.argtypes) == 4 + 3 + 3 + 5 + 1
    key, flat = _kernel._bind(kernels.copy, (fake_array((8,)), pair, 64), None)
    assert len(flat) == 3 + 3 + 5 + 1
    other, _ = _kernel._bind(kernels.copy, (fake_array((8,)), (pair[0], (pair[1][0], 3.0)), 64), None)
    assert other != key   # an int and a float leaf make different specializations


def test_negative_and_fractional_strides(fake_array):
    with pytest.raises(ArgError, match="negative strides"):
        signature(kernels.copy, (fake_array((8,), strides=(-4,)), fake_array((8,)), 64))
    with pytest.raises(ArgError, match="whole number"):
        signature(kernels.copy, (fake_array((8,), strides=(6,)), fake_array((8,)), 64))


def test_zero_d_arrays(fake_array):
    sig, bound = signature(kernels.copy, (fake_array(()), fake_array((8,)), 64))
    assert sig == "x=float32[] align16, y=float32[?] align16 contiguous, TILE=64"
    assert len(bound.argtypes) == 4 + 1 + 3     # a 0-d array is its pointer alone


class _ReadAs:
    """An array whose reader reports a given dtype (numpy has no float8 typestr; torch and
    DLPack arrays carry one)."""


@pytest.mark.parametrize("dtype,name", [(ct.float8_e4m3fn, "float8_e4m3fn"),
                                        (ct.float8_e5m2, "float8_e5m2")])
def test_float8_arrays(monkeypatch, fake_array, dtype, name):
    monkeypatch.setitem(_args._kinds, _ReadAs,
                        (_args.ARRAY, lambda a: (dtype, (4, 8), (8, 1), 0x7F0000000000)))
    sig, _ = signature(kernels.copy, (_ReadAs(), fake_array((8,)), 64))
    assert sig.startswith(f"x={name}[?, ?] align16 contiguous, ")


def test_unsupported_dtypes(monkeypatch, fake_array):
    with pytest.raises(ArgError, match="unsupported array dtype"):
        signature(kernels.copy, (fake_array((8,), "<c8"), fake_array((8,)), 64))
    monkeypatch.setitem(_args._kinds, _ReadAs,
                        (_args.ARRAY, lambda a: (ct.float8_e8m0fnu, (8,), (1,), 0x7F0000000000)))
    with pytest.raises(ArgError, match="arrays of float8_e8m0fnu are not supported"):
        signature(kernels.copy, (_ReadAs(), fake_array((8,)), 64))


def test_bad_constants(fake_array):
    with pytest.raises(ArgError, match="a Constant parameter takes"):
        signature(kernels.copy, (fake_array((8,)), fake_array((8,)), "64"))


def test_non_finite_float_constants_are_spelled_as_repr(fake_array):
    # cuTile's test_custom_padding_constant[inf] / [-inf]: a padding value of +-inf (nan too)
    # is a Constant; the transpiler's signature grammar reads repr()'s spelling.
    for value, text in ((float("inf"), "inf"), (float("-inf"), "-inf"), (float("nan"), "nan")):
        assert signature(kernels.copy, (fake_array((8,)), fake_array((8,)), value))[0].endswith("=" + text)


def test_argument_count():
    with pytest.raises(TypeError, match="Kernel expects 3 arguments but 2 were given"):
        _kernel._bind(kernels.copy, (1, 2), None)


def test_static_shape_dims_annotation(fake_array):
    from typing import Annotated

    @ct.kernel
    def annotated(x: Annotated[ct.Array, ct.ArrayAnnotation(static_shape_dims=(1,))]):
        pass

    sig, _ = signature(annotated, (fake_array((5, 64)),))
    assert sig == "x=float32[?, 64] align16 contiguous"
    with pytest.raises(ArgError, match="64-bit array indexing"):
        @ct.kernel
        def wide(x: ct.IndexedWithInt64):
            pass
        signature(wide, (fake_array((5,)),))


def test_string_annotations_resolve():
    from tile2cu._annotations import parameter_infos
    ns = {"ct": ct}
    exec("def f(a, n: 'ct.Constant[int]', m: 'ct.ScalarInt64', z: 'undefined_name'): pass", ns)
    infos, variadic = parameter_infos(ns["f"])
    assert [i.constant for i in infos] == [False, True, False, False]
    assert infos[2].scalar_dtype is ct.int64 and variadic is None


def test_numeric_constants_of_other_types(fake_array):
    from fractions import Fraction
    import decimal
    # numbers.Real that is not Integral (numpy.float32, Fraction) stands for its float value
    sig, _ = signature(kernels.copy, (fake_array((8,)), fake_array((8,)), Fraction(1, 4)))
    assert sig.endswith("TILE=0.25")
    with pytest.raises(ArgError, match="a Constant parameter takes"):
        signature(kernels.copy, (fake_array((8,)), fake_array((8,)), decimal.Decimal(1)))


@ct.kernel
def grouped(xs, alpha: float, outs, TILE: ct.Constant[int]):
    pass


def test_lists_of_arrays(fake_array):
    xs = [fake_array((100,)), fake_array((7,), ptr=0x7F0000000100)]
    outs = [fake_array((100,)), fake_array((8,), ptr=0x7F0000000104, strides=(8,))]
    sig, bound = signature(grouped, (xs, 0.5, outs, 16))
    # The facts hold for the list when they hold for every item.
    assert sig == ("xs=list[float32[?] align16 contiguous], alpha=float32, outs=list[float32[?]], "
                   "TILE=16")
    # stream, grid x/y/z; per list: the word table and the item count
    import ctypes
    assert bound.argtypes[4:] == [ctypes.POINTER(ctypes.c_int64), ctypes.c_int32, ctypes.c_float,
                                  ctypes.POINTER(ctypes.c_int64), ctypes.c_int32]
    key, flat = _kernel._bind(grouped, (xs, 0.5, outs, 16), None)
    # per item: pointer, shape, strides in elements (1 + 2 * rank words)
    assert list(flat[0]) == [0x7F0000000000, 100, 1, 0x7F0000000100, 7, 1] and flat[1] == 2
    assert list(flat[3]) == [0x7F0000000000, 100, 1, 0x7F0000000104, 8, 2] and flat[4] == 2
    aligned_outs = [fake_array((100,)), fake_array((8,))]
    assert _kernel._bind(grouped, (xs, 0.5, aligned_outs, 16), None)[0] != key


ListWithStaticShape = Annotated[
    list, ct.ListAnnotation(element=ct.ArrayAnnotation(static_shape_dims=(0, 1)))]
ListWithStaticStride = Annotated[
    list, ct.ListAnnotation(element=ct.ArrayAnnotation(static_stride_dims=(0,)))]


@ct.kernel
def static_shape_list(xs: ListWithStaticShape, out):
    pass


@ct.kernel
def static_stride_list(xs: ListWithStaticStride, out):
    pass


def test_list_annotation_makes_item_facts_static(fake_array):
    """cuTile's test_list.py::test_add_list_static_shape / _static_stride: the element's
    ArrayAnnotation applies to every item, as to an array parameter."""
    out = fake_array((4, 8), "<i4")
    items = [fake_array((16, 16), "<i4"), fake_array((16, 16), "<i4", ptr=0x7F0000000400)]
    sig, _ = signature(static_shape_list, (items, out))
    assert sig.startswith("xs=list[int32[16, 16] align16 contiguous], ")
    # rows 10 elements apart (a (4, 10) array's first 8 columns); the unit last stride is then
    # no longer a fact of the signature, as for an annotated array
    padded = [fake_array((4, 8), "<i4", strides=(40, 4)) for _ in range(3)]
    sig, _ = signature(static_stride_list, (padded, out))
    assert sig.startswith("xs=list[int32[?, ?] strides(10, ?) align16], ")


def test_list_items_must_agree_on_static_facts(fake_array):
    """cuTile's test_add_list_static_shape_mismatch / _static_stride_mismatch: one kernel serves
    the list, so its items cannot differ where the annotation makes values constants."""
    out = fake_array((16, 16), "<i4")
    with pytest.raises(ArgError, match="vary in static shape at axis 0") as e:
        signature(static_shape_list, ([fake_array((16, 16), "<i4"), fake_array((32, 16), "<i4")],
                                      out))
    assert e.value.kind is ValueError
    with pytest.raises(ArgError, match="vary in static stride at axis 0") as e:
        signature(static_stride_list, ([fake_array((4, 8), "<i4", strides=(40, 4)),
                                        fake_array((4, 8), "<i4", strides=(48, 4))], out))
    assert e.value.kind is ValueError


def test_list_items_share_dtype_and_rank(fake_array):
    with pytest.raises(ArgError, match=r"item 1 of the list is float16\[1-d\], item 0 is "
                                       r"float32\[1-d\]") as e:
        signature(grouped, ([fake_array((8,)), fake_array((8,), "<f2")], 1.0, [fake_array((8,))], 16))
    assert e.value.kind is TypeError
    with pytest.raises(ArgError, match=r"item 1 of the list is float32\[2-d\]"):
        signature(grouped, ([fake_array((8,)), fake_array((2, 4))], 1.0, [fake_array((8,))], 16))
    with pytest.raises(ArgError, match="item 0 of the list: .*negative strides"):
        signature(grouped, ([fake_array((8,), strides=(-4,))], 1.0, [fake_array((8,))], 16))
