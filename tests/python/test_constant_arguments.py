"""Integer Constants beyond int64 (cuTile's test_typeinfer.py::test_typeof_constant_int_arg with
2**63): cuTile types a constant in [2**63, 2**64) uint64, so tile2cu's signature carries it and
the kernel computes with it in uint64; one beyond every integer type is a TileValueError.
Stand-in builds, no GPU; the transpiler itself runs where its output is checked."""

import re
import subprocess
import textwrap

import pytest

from conftest import FakeDeviceArray
import tile2cu.cutile as ct
from tile2cu import _build, _errors
from test_launch_checks import entry  # noqa: F401 - the fixture


@ct.kernel
def store_constant(n: ct.Constant[int], x):
    ct.scatter(x, (), n)


@ct.kernel
def store_first(ns: ct.Constant[tuple], x):
    ct.scatter(x, (), ns[0])


@pytest.mark.parametrize("value", [2**63, 2**64 - 1])
def test_uint64_constants_reach_the_signature(entry, value, monkeypatch):  # noqa: F811
    seen = []
    build = _build.build
    monkeypatch.setattr(_build, "build", lambda *a, **k: seen.append(a[3]) or build(*a, **k))
    ct.launch(0, (1,), store_constant, (value, FakeDeviceArray((), "<u8")))
    assert seen == [f"n={value}, x=uint64[] align16"]
    assert len(entry.calls) == 1


def test_a_uint64_constant_computes_in_uint64(tmp_path):
    """The loop makes `t` a run-time value of the constant's type: uint64, so storing it into a
    uint64 array needs no cast and into an int64 one is cuTile's implicit-cast error."""
    src = tmp_path / "k.py"
    src.write_text(textwrap.dedent("""\
        import cuda.tile as ct

        @ct.kernel
        def kernel(n: ct.Constant[int], x):
            t = n
            for i in range(2):
                t += 1
            ct.scatter(x, (), t)
        """))

    def transpile(x):
        return subprocess.run([str(_build.find_tool()), str(src), "--kernel", "kernel", "--sig",
                               f"n={2**63}, x={x}[]", "--emit=ir"], capture_output=True, text=True)
    ok = transpile("uint64")
    assert ok.returncode == 0, ok.stderr
    assert "9223372036854775808" in ok.stdout and "u64" in ok.stdout
    refused = transpile("int64")
    assert refused.returncode != 0 and "cannot implicitly cast" in refused.stderr, refused.stderr


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
