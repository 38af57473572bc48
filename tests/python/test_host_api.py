"""cuTile's host surface: decorator forms and option checks, grid and stream validation, the
exception classes, tile-only functions."""

import pytest

import kernels
import tile2cu.cutile as ct
from tile2cu import _args, _kernel
from tile2cu._args import ArgError


def test_decorator_forms():
    def f(x):
        pass
    assert isinstance(ct.kernel(f), ct.kernel)
    assert isinstance(ct.kernel()(f), ct.kernel)
    assert isinstance(ct.kernel(occupancy=2, num_ctas=ct.ByTarget(sm_100=2))(f), ct.kernel)
    k = ct.kernel(f, occupancy=4)
    assert k._pyfunc is f and k.replace_hints(occupancy=8)._options["occupancy"] == 8
    assert kernels.copy.__name__ == "copy"


@pytest.mark.parametrize("opts,text", [({"num_ctas": 3}, "num_ctas"), ({"occupancy": 33}, "occupancy"),
                                       ({"opt_level": 4}, "opt_level"),
                                       ({"num_worker_warps": 6}, "num_worker_warps"),
                                       ({"num_ctas": ct.ByTarget(sm_100=5)}, "num_ctas")])
def test_option_checks(opts, text):
    with pytest.raises(ValueError, match=text):
        ct.kernel(lambda x: None, **opts)


def test_bad_decorations():
    with pytest.raises(TypeError, match="Python function"):
        ct.kernel(42)
    with pytest.raises(ValueError, match="architecture name"):
        ct.ByTarget(hopper=2)


def test_kernels_are_not_called_directly():
    with pytest.raises(TypeError, match="launch"):
        kernels.copy(1, 2, 3)


@pytest.mark.parametrize("expected,given,text", [
    (1, 2, "Kernel expects 1 argument but 2 were given"),
    (2, 1, "Kernel expects 2 arguments but 1 was given"),
    (2, 3, "Kernel expects 2 arguments but 3 were given"),
])
def test_argument_count_in_cutile_words(expected, given, text):
    # cuTile's test_dispatcher.py::test_wrong_number_of_kernel_arguments matches these texts
    assert _kernel._argument_count_message(expected, given) == text


def test_grid_limit_in_cutile_words(monkeypatch):
    # cuTile's test_dispatcher.py::test_max_grid_size_24bit matches this text
    monkeypatch.setattr(_kernel, "_max_grid", (2**31 - 1, 65535, 65535))
    with pytest.raises(ValueError) as e:
        _kernel._grid((2**24, 1, 1))
    assert str(e.value) == ("Grid[0] exceeds 24-bit limit: max=16777215, got=16777216. "
                            "Use multiple kernel launches for larger workloads.")


def test_launch_wants_a_kernel():
    with pytest.raises(TypeError, match="@ct.kernel"):
        ct.launch(0, (1,), lambda: None, ())


@pytest.mark.parametrize("grid,kind,text", [
    ((2**24,), ValueError, "exceeds 24-bit limit"),
    ((0,), ValueError, "must be positive"),
    ((1, 1, 1, 1), ValueError, "at most 3 dimensions"),
    ((1.5,), TypeError, "must be an int"),
    ((1, 70000), ValueError, "device's maximum"),
    ("8", TypeError, "tuple of at most 3 ints"),
])
def test_grid_validation(monkeypatch, grid, kind, text):
    monkeypatch.setattr(_kernel, "_max_grid", (2**31 - 1, 65535, 65535))
    with pytest.raises(kind, match=text):
        _kernel._grid(grid)


def test_grid_padding(monkeypatch):
    monkeypatch.setattr(_kernel, "_max_grid", (2**31 - 1, 65535, 65535))
    assert _kernel._grid((5,)) == (5, 1, 1)
    assert _kernel._grid([5, 2]) == (5, 2, 1)
    assert _kernel._grid(7) == (7, 1, 1)


def test_streams():
    class TorchLike:
        cuda_stream = 0x1234

    class CupyLike:
        ptr = 0x5678

    class NumbaLike:
        class handle:  # noqa: N801 - like a ctypes c_void_p
            value = 0x9ABC

    class CoreLike:
        def __cuda_stream__(self):
            return (0, 0xDEF0)

    assert _args.stream_handle(0) == 0
    assert _args.stream_handle(TorchLike()) == 0x1234
    assert _args.stream_handle(CupyLike()) == 0x5678
    assert _args.stream_handle(NumbaLike()) == 0x9ABC
    assert _args.stream_handle(CoreLike()) == 0xDEF0
    with pytest.raises(ArgError, match="cannot use a str as a CUDA stream"):
        _args.stream_handle("default")


def test_launch_reports_argument_errors_with_cutile_classes(monkeypatch, fake_array):
    monkeypatch.setattr(_kernel, "_max_grid", (2**31 - 1, 65535, 65535))
    with pytest.raises(TypeError, match="Kernel expects 3 arguments but 1 was given"):
        ct.launch(0, (1,), kernels.copy, (fake_array((8,)),))
    with pytest.raises(TypeError, match="item 0 of the list is None, not an array"):
        ct.launch(0, (1,), kernels.copy, (fake_array((8,)), [None], 4))


def test_exception_classes():
    assert issubclass(ct.TileTypeError, ct.TileError)
    assert ct.TileTypeError.__name__ == "TypeCheckingError"
    assert ct.TileSyntaxError.__name__ == "UnsupportedSyntaxError"
    assert issubclass(ct.TileCompilerExecutionError, ct.TileInternalError)
    from tile2cu._errors import from_diagnostics
    text = ("k.py:7:12: error[TileValueError]: Integer constant 300 is out of range of int8\n"
            "    c = t + 300\n            ^^^\n")
    e = from_diagnostics(text, 1)
    assert type(e) is ct.TileValueError and e.loc.line == 7 and e.loc.col == 12
    assert e.message == "Integer constant 300 is out of range of int8" and str(e) == text.rstrip()


def test_tile_functions_and_host_helpers():
    with pytest.raises(RuntimeError, match="tile code"):
        ct.load(None, index=(0,), shape=(4,))
    assert ct.cdiv(10, 4) == 3 and ct.cdiv(8, 4) == 2
    assert ct.PaddingMode.ZERO.name == "ZERO" and ct.MemoryOrder.ACQ_REL and ct.RoundingMode.RZ
    assert ct.float16.bitwidth == 16 and ct.bool_.name == "bool_"
    helper = ct.function(lambda v: v)
    with pytest.raises(RuntimeError, match=r"Device functions can only be called from device code\. .* is a tile function"):
        helper(1)
    assert ct.function(host=True)(abs) is abs


def test_private_modules_public_code_imports():
    """cuTile's own tests import these names from its private modules; each is an alias."""
    from cuda.tile._datatype import float8_e4m3fn
    from cuda.tile._exception import Loc, TileTypeError, TypeCheckingError, UnsupportedCallError
    from cuda.tile._memory_model import MemoryOrder
    from cuda.tile._numeric_semantics import RoundingMode as RMd
    from cuda.tile.tune import TuningResult, _tune, _tune_utils, exhaustive_search
    assert TileTypeError is TypeCheckingError is ct.TileTypeError and RMd is ct.RoundingMode
    assert MemoryOrder is ct.MemoryOrder and float8_e4m3fn is ct.float8_e4m3fn
    assert issubclass(UnsupportedCallError, ct.TileError) and Loc("k.py", 1, 2).line == 1
    assert exhaustive_search is ct.tune.exhaustive_search is _tune.exhaustive_search
    assert TuningResult is _tune.TuningResult and _tune_utils.TileLaunchTimeoutError
    with pytest.raises(ModuleNotFoundError):
        import cuda.tile._ir  # noqa: F401 - cuTile's compiler internals are not aliased


def test_compiler_errors_take_cutile_arguments():
    e = ct.TileCompilerExecutionError(1, "simulated error", None, "", None)
    assert str(e) == "Return code 1\nsimulated error" and e.compiler_flags == ""
    t = ct.TileCompilerTimeoutError("simulated timeout", "", None)
    assert t.message == "simulated timeout" and isinstance(t, ct.TileInternalError)


def test_kernel_not_found_by_the_transpiler():
    from tile2cu._errors import from_diagnostics
    e = from_diagnostics("error[UsageError]: no @ct.kernel function named 'k' in m.py "
                         "(kernels found: a)\n", 2)
    assert type(e) is ct.TileUnsupportedFeatureError and e.loc is None
    assert "no @ct.kernel function named 'k'" in e.message
