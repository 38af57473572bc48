"""Integer Constants beyond int64 (cuTile's test_typeinfer.py::test_typeof_constant_int_arg with
2**63): cuTile types such a constant uint64, tile2cu's signatures hold int64 only, so the
launcher says so before the transpiler's signature parser would fail on it (an internal error
before). Stand-in builds, no GPU."""

import re

import pytest

from conftest import FakeDeviceArray
import tile2cu.cutile as ct
from tile2cu import _errors
from test_launch_checks import entry  # noqa: F401 - the fixture


@ct.kernel
def store_constant(n: ct.Constant[int], x):
    ct.scatter(x, (), n)


@ct.kernel
def store_first(ns: ct.Constant[tuple], x):
    ct.scatter(x, (), ns[0])


@pytest.mark.parametrize("value", [2**63, 2**64 - 1])
def test_uint64_constants_are_unsupported(entry, value):  # noqa: F811
    with pytest.raises(_errors.TileUnsupportedFeatureError, match=f"the Constant {value} needs "
                                                                  "uint64"):
        ct.launch(0, (1,), store_constant, (value, FakeDeviceArray((), "<u8")))
    assert not entry.calls


@pytest.mark.parametrize("value", [2**64, -(2**63) - 1])
def test_constants_beyond_every_integer_type_are_value_errors(entry, value):  # noqa: F811
    with pytest.raises(_errors.TileValueError, match="out of range of any supported integer "
                                                     "type"):
        ct.launch(0, (1,), store_first, ((value, 1), FakeDeviceArray((), "<i8")))


def test_int64_bounds_still_pass(entry):  # noqa: F811
    for value in (2**63 - 1, -(2**63)):
        ct.launch(0, (1,), store_constant, (value, FakeDeviceArray((), "<i8")))
    assert len(entry.calls) == 2


def test_a_tuple_item_that_is_no_constant_is_named_as_cutile_does(entry):  # noqa: F811
    """test_tuple_arguments.py::test_constant_tuple_array_element_rejected: cuTile counts
    arguments and items from 0."""
    x = FakeDeviceArray((), "<i8")
    with pytest.raises(TypeError, match=re.escape("Invalid item #1 of kernel argument #0: Could not "
                                                  "interpret object of type 'FakeDeviceArray' as a "
                                                  "constant.")):
        ct.launch(0, (1,), store_first, ((1, x), x))
    assert not entry.calls
