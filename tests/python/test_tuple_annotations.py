"""Tuple parameters annotated item by item, as cuTile's test_tuple_arguments.py writes them:
`tuple[ct.ScalarInt64, int]` picks each item's scalar dtype, a tuple of another length is
cuTile's TypeError, and ct.Constant over a tuple holding ScalarInt64 is refused at launch. The
launches use stand-in builds (no GPU); the mixed-scalar kernel is also transpiled."""

import re

import pytest

from conftest import FakeDeviceArray
import tile2cu.cutile as ct
from tile2cu import _build, _errors, _kernel
from test_launch_checks import entry  # noqa: F401 - the fixture
from test_synthesize import jit_kernel, transpile


def _recording(monkeypatch):
    signatures = []
    build = _build.build

    def recording_build(source_path, kernel_name, spec_name, signature, *rest, **kw):
        signatures.append(signature)
        return build(source_path, kernel_name, spec_name, signature, *rest, **kw)
    monkeypatch.setattr(_build, "build", recording_build)
    return signatures


def _mixed_scalar_kernel(annotation):
    @ct.kernel
    def k(a, scalars: annotation, out):
        t = ct.load(a, (0,), (8,))
        ct.store(out, (0,), t + scalars[0] - scalars[1])
    return k


@pytest.mark.parametrize("annotation, scalars, constraint", [
    (tuple[ct.ScalarInt64, int], (2**33 + 7, 5), "scalars=(int64, int32)"),
    (tuple[int, ct.ScalarInt64], (5, 2**33 + 7), "scalars=(int32, int64)")])
def test_each_item_takes_its_scalar_dtype(entry, monkeypatch, annotation, scalars,  # noqa: F811
                                          constraint):
    signatures = _recording(monkeypatch)
    a = FakeDeviceArray((8,), "<i8")
    ct.launch(0, (1,), _mixed_scalar_kernel(annotation), (a, scalars, a))
    assert constraint in signatures[-1]
    assert entry.calls[-1][-5:-3] == scalars   # after a's pointer, shape, stride; before out's


def test_an_int32_item_still_refuses_64_bit_values(entry):  # noqa: F811
    a = FakeDeviceArray((8,), "<i8")
    with pytest.raises(ValueError, match=r"#2 \(scalars\): 8589934599 does not fit in int32"):
        ct.launch(0, (1,), _mixed_scalar_kernel(tuple[int, ct.ScalarInt64]), (a, (2**33 + 7, 5), a))


def test_mixed_scalar_tuple_transpiles(cache_dir, tmp_path, fake_array):
    k = _mixed_scalar_kernel(tuple[ct.ScalarInt64, int])
    a = fake_array((8,), "<i8")
    assert "tile2cu_spec_test" in transpile(k, (a, (2**33 + 7, 5), a), tmp_path)


def test_constant_over_a_tuple_with_scalar_int64_is_refused(entry):  # noqa: F811
    @ct.kernel
    def k(a, out, addends: ct.Constant[tuple[ct.ScalarInt64, int]]):
        ct.store(out, (0,), ct.load(a, (0,), (8,)) + addends[0])

    a = FakeDeviceArray((8,), "<i8")
    with pytest.raises(TypeError, match="Constant annotation cannot be combined with "
                                        "ScalarAnnotation/ScalarInt64"):
        ct.launch(0, (1,), k, (a, a, (2**33 + 7, 5)))
    assert not entry.calls


@pytest.mark.parametrize("value, got", [((1, 2, 3), 3), ((1,), 1), (((1, 2, 3), 4), 3)])
def test_a_tuple_of_another_length_is_refused(entry, value, got):  # noqa: F811
    @ct.kernel
    def k(out, addends: tuple[tuple[int, int], int] if isinstance(value[0], tuple)
          else tuple[int, int]):
        ct.scatter(out, (0,), addends[1])

    with pytest.raises(TypeError, match=f"Received a tuple of length {got} for a parameter "
                                        "annotated as a tuple of length 2"):
        ct.launch(0, (1,), k, (FakeDeviceArray((1,), "<i4"), value))
    assert not entry.calls


def test_variable_length_tuple_annotations_take_any_length(entry, monkeypatch):  # noqa: F811
    signatures = _recording(monkeypatch)

    @ct.kernel
    def k(out, addends: tuple[int, ...]):
        ct.scatter(out, (0,), addends[0])

    ct.launch(0, (1,), k, (FakeDeviceArray((1,), "<i4"), (1, 2, 3)))
    assert "addends=(int32, int32, int32)" in signatures[-1]


PARTIAL_CONST = """
def k(a, out, cfg: {annotation}):
    t = ct.load(a, (0,), ({shape},))
    ct.store(out, (0,), t + 1)
"""


@pytest.mark.parametrize("annotation, shape, cfg, constraint", [
    ("tuple[ct.Constant[int], int]", "cfg[0]", (8, 5), "cfg=(8, int32)"),
    ("tuple[int, ct.Constant[int]]", "cfg[1]", (5, 8), "cfg=(int32, 8)"),
    ("tuple[tuple[ct.Constant[int], int], int]", "cfg[0][0]", ((8, 3), 5), "cfg=((8, int32), int32)")])
def test_an_item_annotated_constant_is_a_constant(cache_dir, tmp_path, fake_array,
                                                  annotation, shape, cfg, constraint):
    # cuTile's test_tuple_arguments.py partial-const tests: the annotated item is a tile shape.
    k = jit_kernel("k", PARTIAL_CONST.format(annotation=annotation, shape=shape), tmp_path)
    a = fake_array((8,), "<i4")
    bound = _kernel._Bound()
    _kernel._bind(k, (a, a, cfg), bound)
    assert constraint in bound.constraints
    assert "tile2cu_spec_test" in transpile(k, (a, a, cfg), tmp_path)


def test_an_unannotated_item_is_no_constant(cache_dir, tmp_path, fake_array):
    k = jit_kernel("k", PARTIAL_CONST.format(annotation="tuple[int, int]", shape="cfg[0]"), tmp_path)
    a = fake_array((8,), "<i4")
    with pytest.raises(_errors.TileTypeError, match="Expected a constant integer tuple"):
        transpile(k, (a, a, (8, 5)), tmp_path)


def test_an_empty_tuple_argument_passes_nothing(cache_dir, tmp_path, fake_array):
    @ct.kernel
    def k(out, empty):
        ct.scatter(out, (), len(empty) + 1)

    assert "tile2cu_spec_test" in transpile(k, (fake_array((), "<i4"), ()), tmp_path)


@pytest.mark.parametrize("make_args, where", [
    (lambda P, out: (out, P(1, 2)), "Invalid kernel argument #1:"),
    (lambda P, out: (out, (1, P(2, 3))), "Invalid item #1 of kernel argument #1:")])
def test_a_namedtuple_is_refused_in_cutiles_words(entry, fake_array, make_args, where):  # noqa: F811
    from collections import namedtuple
    Point = namedtuple("Point", ["x", "y"])

    @ct.kernel
    def k(out, p):
        ct.scatter(out, (0,), 1)

    with pytest.raises(TypeError, match=re.escape(f"{where} 'Point' is a subclass of 'tuple'. "
                                                  "Only plain tuples are accepted.")):
        ct.launch(0, (1,), k, make_args(Point, fake_array((1,), "<i4")))
