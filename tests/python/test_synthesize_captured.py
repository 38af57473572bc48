"""Kernels defined inside functions that use module-level helpers and classes of their file as
cuTile's tests write them: @contextlib.contextmanager generators, Enum / IntEnum classes and
their members (also captured from the enclosing function), frozen dataclasses and captured
instances of them; CuPy's NumPy names. The launcher
writes them into the synthesized module from their source; these tests transpile (no nvcc, no
GPU) and look at the module and the errors."""

import contextlib
import enum
import re
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Annotated, Any

import pytest

import tile2cu.cutile as ct
from tile2cu import _errors
from test_synthesize import transpile


def append(x, val):
    i = ct.gather(x, 0) + 1
    ct.scatter(x, 0, i)
    ct.scatter(x, i, val)


@contextmanager
def bracket(x, start_val, end_val):
    append(x, start_val)
    yield start_val
    append(x, end_val)


@contextlib.contextmanager
def bracket_dotted(x):
    append(x, 1)
    yield 1


class Color(enum.Enum):
    RED = 0
    GREEN = 1


class Priority(enum.IntEnum):
    LOW = 0
    HIGH = 2


@dataclass(frozen=True)
class Scale:
    factor: int

    def times(self, v):
        return v * self.factor


def test_contextmanager_helper_is_written_from_its_generator(cache_dir, tmp_path, fake_array):
    @ct.kernel
    def kern(x):
        with bracket(x, 20, 30) as val:
            ct.static_assert(val == 20)
            append(x, 40)
        with bracket_dotted(x) as one:
            ct.static_assert(one == 1)

    text = kern._source()[1].text
    assert "@contextmanager\ndef bracket(" in text and "def append(" in text
    assert "@contextlib.contextmanager\ndef bracket_dotted(" in text
    assert "contextmanager = tile2cu_contextlib.contextmanager" in text
    assert "tile2cu_spec_test" in transpile(kern, (fake_array((10,), "<i4"),), tmp_path)


def test_enum_classes_and_members(cache_dir, tmp_path, fake_array):
    captured = Color.GREEN

    @ct.kernel
    def kern(out):
        if Color(0) == Color.RED and Priority.LOW < Priority.HIGH and captured.name == "GREEN":
            ct.scatter(out, (), 1)

    text = kern._source()[1].text
    assert "class Color(enum.Enum):" in text and "class Priority(enum.IntEnum):" in text
    assert "captured = Color.GREEN" in text
    assert "tile2cu_spec_test" in transpile(kern, (fake_array((), "<i4"),), tmp_path)


@pytest.mark.parametrize("value", [99, "foo"])
def test_invalid_enum_value_is_cutiles_value_error(cache_dir, tmp_path, fake_array, value):
    @ct.kernel
    def kern(out):
        _ = Color(value)
        ct.scatter(out, (), 0)

    with pytest.raises(ct.TileValueError, match="is not a valid Color"):
        transpile(kern, (fake_array((), "<i4"),), tmp_path)


def test_enum_ordering_is_cutiles_type_error(cache_dir, tmp_path, fake_array):
    @ct.kernel
    def kern(out):
        if Color.RED < Color.GREEN:
            ct.scatter(out, (), 1)

    with pytest.raises(ct.TileTypeError):
        transpile(kern, (fake_array((), "<i4"),), tmp_path)


def test_frozen_dataclass_with_a_method(cache_dir, tmp_path, fake_array):
    @ct.kernel
    def kern(out):
        ct.scatter(out, (), Scale(3).times(2))

    text = kern._source()[1].text
    assert "@dataclass(frozen=True)\nclass Scale:" in text
    assert "dataclass = tile2cu_dataclasses.dataclass" in text
    assert "tile2cu_spec_test" in transpile(kern, (fake_array((), "<i4"),), tmp_path)


@dataclass(frozen=True)
class WithBracket:
    x: ct.Array

    @contextmanager
    def bracket(self, start_val, end_val):
        append(self.x, start_val)
        yield start_val
        append(self.x, end_val)


def test_dataclass_method_context_manager(cache_dir, tmp_path, fake_array):
    # cuTile's test_contextlib_contextmanager.py::test_dataclass_method_context_manager
    @ct.kernel
    def kern(x):
        obj = WithBracket(x)
        with obj.bracket(20, 30) as val:
            append(x, 40)
            ct.static_assert(val == 20)

    assert "tile2cu_spec_test" in transpile(kern, (fake_array((10,), "<i4"),), tmp_path)


def test_library_classes_are_still_refused(cache_dir, tmp_path, fake_array):
    import collections
    counter = collections.Counter

    @ct.kernel
    def kern(out):
        counter()

    with pytest.raises(_errors.TileUnsupportedFeatureError, match="'counter'"):
        transpile(kern, (fake_array((), "<i4"),), tmp_path)


def _cupy_like():
    """A module as CuPy is to a kernel: NumPy's scalar types and constants under NumPy's names."""
    import types

    numpy = pytest.importorskip("numpy")
    module = types.ModuleType("cupy")
    module.float16, module.int8, module.bool_ = numpy.float16, numpy.int8, numpy.bool_
    module.inf = numpy.inf
    module.asarray = lambda x: x   # a function of its own: not NumPy's
    return module


FULL_FROM_VALUE_CALL = """
def full_value_call(x, TILE: ct.Constant[int]):
    tx = ct.full((TILE,), {value}, {dtype})
    ct.store(x, index=(ct.bid(0),), tile=tx)"""


@pytest.mark.parametrize("value, dtype, typestr", [
    ("cp.float16(1.5)", "cp.float16", "<f2"), ("cp.int8(1)", "cp.int8", "|i1"),
    ("cp.bool_(1)", "cp.bool_", "|b1"), ("cp.inf", "cp.float16", "<f2")])
def test_cupy_dtypes_and_constants_are_numpys(cache_dir, tmp_path, fake_array, value, dtype,
                                              typestr):
    from test_synthesize import jit_kernel
    k = jit_kernel("full_value_call", FULL_FROM_VALUE_CALL.format(value=value, dtype=dtype),
                   tmp_path, {"cp": _cupy_like()})
    assert "import numpy as cp" in k._source()[1].text
    assert "tile2cu_spec_test" in transpile(k, (fake_array((256,), typestr), 128), tmp_path)


def test_cupy_functions_of_its_own_stay_cupy(cache_dir, tmp_path, fake_array):
    from test_synthesize import jit_kernel
    k = jit_kernel("full_value_call",
                   FULL_FROM_VALUE_CALL.format(value="cp.asarray(1.0)", dtype="cp.float16"),
                   tmp_path, {"cp": _cupy_like()})
    assert "import cupy as cp" in k._source()[1].text
    with pytest.raises(_errors.TileUnsupportedFeatureError, match="module 'cupy'"):
        transpile(k, (fake_array((256,), "<f2"), 128), tmp_path)


@dataclass(frozen=True)
class Pair:
    first: int
    second: Any = Color.GREEN


def test_captured_frozen_dataclass_instances_are_written_as_calls(cache_dir, tmp_path,
                                                                  fake_array):
    captured = Pair(2, Pair(3))

    @ct.kernel
    def kern(out):
        if captured.second.second == Color.GREEN:
            ct.scatter(out, (), captured.first + captured.second.first)

    text = kern._source()[1].text
    assert ("captured = Pair(first=2, second=Pair(first=3, second=Color.GREEN))" in text)
    assert "Any = tile2cu_typing.Any" in text
    assert "tile2cu_spec_test" in transpile(kern, (fake_array((), "<i4"),), tmp_path)


def test_dataclass_defined_in_the_enclosing_function(cache_dir, tmp_path, fake_array):
    @dataclass(frozen=True)
    class Selfish:
        self: int

    @ct.kernel
    def kern(out):
        ct.scatter(out, (), Selfish(12).self)

    assert "class Selfish:" in kern._source()[1].text
    assert "tile2cu_spec_test" in transpile(kern, (fake_array((), "<i4"),), tmp_path)


def test_mutable_dataclass_instances_are_refused(cache_dir, tmp_path, fake_array):
    @dataclass
    class Mutable:
        n: int
    captured = Mutable(1)

    @ct.kernel
    def kern(out):
        ct.scatter(out, (), captured.n)

    with pytest.raises(_errors.TileUnsupportedFeatureError, match="'captured'"):
        transpile(kern, (fake_array((), "<i4"),), tmp_path)


# Module-level aliases of annotations, as test_tiled_view.py writes `ConstInt = ct.Constant[int]`.
ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]
ConstF16 = ct.Constant[ct.float16]
Tagged = Annotated[int, "a tag"]


def test_constant_annotation_aliases_are_written(cache_dir, tmp_path, fake_array):
    @ct.kernel
    def kern(out, n: ConstInt, flag: ConstBool, half: ConstF16):
        ct.static_assert(n == 4)
        if flag:
            ct.scatter(out, (), n)

    text = kern._source()[1].text
    assert "ConstInt = tile2cu_ct.Constant[int]" in text
    assert "ConstBool = tile2cu_ct.Constant[bool]" in text
    assert "ConstF16 = tile2cu_ct.Constant[tile2cu_ct.float16]" in text
    assert "tile2cu_spec_test" in transpile(kern, (fake_array((), "<i4"), 4, True, 1.5), tmp_path)


def test_other_annotated_aliases_are_still_refused(cache_dir, tmp_path, fake_array):
    @ct.kernel
    def kern(out, n: Tagged):
        ct.scatter(out, (), n)

    with pytest.raises(_errors.TileUnsupportedFeatureError, match="'Tagged'"):
        transpile(kern, (fake_array((), "<i4"), 3), tmp_path)


def test_a_captured_name_a_comprehension_also_uses_as_its_target(cache_dir, tmp_path, fake_array):
    # cuTile's test_tuple_comprehension.py: the comprehension's n is its own; the kernel's n and
    # the first iterable's n are the captured one.
    n = 4

    @ct.kernel
    def kern(y):
        ns = tuple(n for n in ct.static_iter(range(n)))
        ct.static_assert(ns == (0, 1, 2, 3))
        ct.scatter(y, (), n)

    assert "n = 4" in kern._source()[1].text
    assert "tile2cu_spec_test" in transpile(kern, (fake_array((), "<i4"),), tmp_path)


def test_a_dataclass_base_defined_in_the_function_is_written_too(cache_dir, tmp_path, fake_array):
    # cuTile's test_dataclass.py::test_dataclass_with_base: Base is found through Derived's
    # bases (no method of Derived captures it), and written before Derived.
    @dataclass(frozen=True)
    class Base:
        x: int

    @dataclass(frozen=True)
    class Derived(Base):
        y: int

    @ct.kernel
    def kern(x):
        d = Derived(3, 5)
        ct.static_assert(d.x == 3 and d.y == 5)
        ct.scatter(x, 0, d.x)

    text = kern._source()[1].text
    assert text.index("class Base:") < text.index("class Derived(Base):")
    assert "tile2cu_spec_test" in transpile(kern, (fake_array((2,), "<i4"),), tmp_path)


def test_a_nonfrozen_dataclass_from_static_eval_is_cutiles_type_error(cache_dir, tmp_path, fake_array):
    @dataclass
    class Thawed:
        foo: int

    @ct.kernel
    def kern(x):
        ct.static_eval(Thawed(2))

    with pytest.raises(_errors.TileTypeError, match="Only frozen dataclasses are supported"):
        transpile(kern, (fake_array((2,), "<i4"),), tmp_path)


def test_dataclass_base_rules_in_cutiles_words(cache_dir, tmp_path, fake_array):
    @dataclass(frozen=True)
    class Base:
        foo: int

    class Plain(Base):
        pass

    @ct.kernel
    def kern(x):
        Plain(3)

    with pytest.raises(_errors.TileTypeError, match="Non-dataclass subclasses of a dataclass are not supported"):
        transpile(kern, (fake_array((2,), "<i4"),), tmp_path)


def test_captured_numpy_scalars_keep_their_dtype(cache_dir, tmp_path, fake_array):
    """cuTile's test_typeinfer.py::test_typeof_numpy_scalar: a captured np.int16(4) is an int16
    constant (it was written as a plain 4, which has no dtype until it meets a tile)."""
    numpy = pytest.importorskip("numpy")
    val, half, flag = numpy.int16(4), numpy.float16(float("inf")), numpy.bool_(True)

    @ct.kernel
    def kernel(x):
        ct.static_assert(val.dtype == ct.int16 and half.dtype == ct.float16)
        ct.static_assert(val == 4 and flag.dtype == ct.bool_)
        ct.scatter(x, 0, val + 1)

    text = kernel._source()[1].text
    assert re.search(r"^val = \w+\.int16\(4\)$", text, re.M), text
    assert re.search(r'^half = \w+\.float16\(float\("inf"\)\)$', text, re.M), text
    assert re.search(r"^flag = \w+\.bool_\(True\)$", text, re.M), text
    assert "tile2cu_spec_test" in transpile(kernel, (fake_array((4,), "<i2"),), tmp_path)
