"""Kernels the transpiler cannot find in their own file as it stands (a plain `def` exec'd from a
string with `ct` in its globals, kernels defined inside functions and closing over their
variables): the launcher compiles them from a synthesized module. These tests transpile (no nvcc,
no GPU) and look at the module, the generated code and the errors."""

import re
import textwrap

import pytest

import tile2cu.cutile as ct
from tile2cu import _build, _kernel

HERE_FILE = __file__


def transpile(k, args, tmp_path):
    """The generated .cu text for launching `k` with `args` (transpiler only)."""
    bound = _kernel._Bound()
    _kernel._bind(k, args, bound)
    signature = ", ".join(bound.constraints)
    source, synthesized = k._source()
    out = tmp_path / "gen"
    _build._transpile(_build.find_tool(), source, k._name_in_module(), "spec_test", signature,
                      out, synthesized)
    return (out / f"{source.stem}.cu").read_text()


def jit_kernel(name, source, tmp_path, extra_globals=None):
    """As cuTile's test/util.py: write the source, exec it with `ct` in its globals, wrap the
    plain function with ct.kernel."""
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    exec_globals = {"ct": ct, **(extra_globals or {})}
    exec(compile(source, str(path), "exec"), exec_globals)
    return ct.kernel(exec_globals[name])


ARRAY_TEMPLATE = """
def {name}(x, y, z, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    tx = ct.load(x, index=(bid,), shape=(TILE,))
    ty = ct.load(y, index=(bid,), shape=(TILE,))
    {body}
    ct.store(z, index=(bid,), tile=tz)"""


def test_exec_of_an_undecorated_function(cache_dir, tmp_path, fake_array):
    k = jit_kernel("array_add", ARRAY_TEMPLATE.format(name="array_add", body="tz = op(tx, ty)"),
                   tmp_path, {"op": ct.add})
    source, synthesized = k._source()
    assert synthesized is not None and source.stem == "array_add"
    # The def stays on its line (2) where the prelude fits above it, else moves down one.
    lines = synthesized.text.splitlines()
    def_line = next(i for i, line in enumerate(lines, 1) if line.startswith("def array_add"))
    assert lines[def_line - 2] == "@ct.kernel"
    assert "op = ct.add" in lines[0]
    assert synthesized.original(def_line) == (str((tmp_path / "array_add.py").resolve()), 2)
    args = (fake_array((64,)), fake_array((64,)), fake_array((64,)), 16)
    assert "tile2cu_spec_test" in transpile(k, args, tmp_path)


def make_scaled_copy(scale, tile):
    @ct.kernel
    def scaled_copy(x, y):
        t = ct.load(x, index=(ct.bid(0),), shape=(tile,))
        ct.store(y, index=(ct.bid(0),), tile=t * scale)
    return scaled_copy


def test_nested_kernel_with_closure_constants(cache_dir, tmp_path, fake_array):
    k = make_scaled_copy(2.5, 32)
    source, synthesized = k._source()
    assert "scale = 2.5" in synthesized.text and "tile = 32" in synthesized.text
    # Dedented, at its original line in this file.
    first = make_scaled_copy.__code__.co_firstlineno + 1
    lines = synthesized.text.splitlines()
    assert lines[first - 1] == "@ct.kernel" and lines[first].startswith("def scaled_copy(x, y):")
    cu = transpile(k, (fake_array((64,)), fake_array((64,))), tmp_path)
    assert "2.5" in cu


def test_two_closures_with_different_constants_are_two_builds(cache_dir, tmp_path, fake_array):
    a, b, a_again = make_scaled_copy(2.0, 32), make_scaled_copy(3.0, 32), make_scaled_copy(2.0, 32)
    (path_a, syn_a), (path_b, syn_b) = a._source(), b._source()
    assert path_a != path_b and syn_a.digest != syn_b.digest
    assert a_again._source()[0] == path_a          # the same values: the same module and build
    digest_a, _ = _build.source_digest(path_a)
    digest_b, _ = _build.source_digest(path_b)
    assert digest_a != digest_b                    # the build cache key hashes the file


@ct.function
def twice(t):
    return t + t


def thrice(t):
    return twice(t) + t


def make_with_helper(fn):
    @ct.kernel
    def apply(x, y, TILE: ct.Constant[int]):
        t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
        ct.store(y, index=(ct.bid(0),), tile=fn(t))
    return apply


def test_closure_capturing_helper_functions(cache_dir, tmp_path, fake_array):
    k = make_with_helper(thrice)   # a plain function calling a @ct.function: both by source
    _, synthesized = k._source()
    assert "def thrice(t):" in synthesized.text and "def twice(t):" in synthesized.text
    assert "fn = thrice" in synthesized.text
    transpile(k, (fake_array((64,)), fake_array((64,)), 16), tmp_path)
    # A library function captured under another name is bound to it, not copied.
    _, synthesized = make_with_helper(ct.negative)._source()
    assert "fn = ct.negative" in synthesized.text
    # A lambda is written as its expression.
    _, synthesized = make_with_helper(lambda t: t * 3)._source()
    assert "fn = lambda t: t * 3" in synthesized.text


def test_captured_value_that_cannot_be_written(cache_dir, tmp_path, fake_array):
    # Left out of the module, it is refused where the kernel reads it, with its own reason.
    k = make_scaled_copy(object(), 32)
    _, synthesized = k._source()
    assert "scale =" not in synthesized.text
    with pytest.raises(ct.TileUnsupportedFeatureError,
                       match=r"captured variable 'scale'.*object") as raised:
        transpile(k, (fake_array((64,)), fake_array((64,))), tmp_path)
    line = make_scaled_copy.__code__.co_firstlineno + 4
    assert f"test_synthesize.py:{line}:" in str(raised.value)
    assert raised.value.loc.line == line
    # A builtin's name, left unbound, would read as the builtin: refused at once.
    min = [1]   # noqa: A001

    @ct.kernel
    def shadowing(x):
        ct.store(x, index=(0,), tile=ct.full((min[0],), 0, ct.float32))
    with pytest.raises(ct.TileUnsupportedFeatureError, match=r"captured variable 'min'.*list"):
        shadowing._source()


def test_unwritable_capture_comes_after_earlier_errors(cache_dir, tmp_path, fake_array):
    """cuTile's test_static_assert_inside_static_eval and test_nested_static_eval capture a tensor
    `y` the kernel never gets to: an error before its use is the one reported."""
    y = fake_array((), "<i4")

    @ct.kernel
    def kernel(x):
        v = ct.static_eval(ct.static_assert(20))
        ct.scatter(y, (), v)
    with pytest.raises(ct.TileStaticEvalError,
                       match=re.escape("static_assert() cannot be used inside static_eval().")):
        transpile(kernel, (fake_array((), "<i4"),), tmp_path)


def test_error_locations_point_at_the_original_file(cache_dir, tmp_path, fake_array):
    source = textwrap.dedent("""
        def bad_kernel(x, TILE: ct.Constant[int]):
            t = ct.load(x, index=(0,), shape=(TILE,))
            ct.store(x, index=(0,), tile=t + undefined_name)
        """)
    k = jit_kernel("bad_kernel", source, tmp_path)
    with pytest.raises(ct.TileError) as info:
        transpile(k, (fake_array((64,)), 16), tmp_path)
    where = info.value.loc
    assert where.filename == str((tmp_path / "bad_kernel.py").resolve()) and where.line == 4
    assert str(tmp_path / "bad_kernel.py") in str(info.value)
    assert "synthesized" not in str(info.value)


def test_type_errors_keep_their_class(cache_dir, tmp_path, fake_array):
    def make():
        @ct.kernel
        def needs_ints(x):
            t = ct.load(x, index=(0,), shape=(16,))
            ct.store(x, index=(0,), tile=t & t)   # bitwise and of floats
        return needs_ints
    with pytest.raises(ct.TileTypeError) as info:
        transpile(make(), (fake_array((64,)),), tmp_path)
    assert info.value.loc.filename == HERE_FILE
    assert info.value.loc.line == make.__code__.co_firstlineno + 4   # the `t & t` line


def test_module_level_kernels_use_their_own_file(cache_dir):
    import kernels
    path, synthesized = kernels.copy._source()
    assert synthesized is None and path.name == "kernels.py"


def test_error_locations_when_the_prelude_moves_the_kernel_down(cache_dir, tmp_path, fake_array):
    # The def on line 1 leaves no room above it: the kernel moves down and the lines map back.
    source = "def first_line(x):\n    ct.store(x, index=(0,), tile=missing)\n"
    k = jit_kernel("first_line", source, tmp_path)
    _, synthesized = k._source()
    assert synthesized.text.splitlines()[:3] == ["import cuda.tile as ct", "@ct.kernel",
                                                 "def first_line(x):"]
    with pytest.raises(ct.TileError) as info:
        transpile(k, (fake_array((64,)),), tmp_path)
    assert info.value.loc.line == 2 and info.value.loc.filename.endswith("first_line.py")
