"""The stand-ins that let cuTile's test files import under tile2cu (tests/upstream): the
language's implicit-cast rule they use to decide whether to expect an error, and the internal
names only out-of-scope tests use, which say that tile2cu lacks them."""

import sys
from pathlib import Path

import pytest

import tile2cu.cutile as ct
from tile2cu import _dtypes

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "upstream"))
import standins_internals as internals  # noqa: E402


# Rows of the language's promotion table (shared/cutile-language.md b.5), and b.6: a value is
# cast implicitly only where promote(src, dst) == dst.
@pytest.mark.parametrize("src, dst, ok", [
    ("float32", "float16", False), ("float16", "float32", True), ("int32", "int64", True),
    ("int64", "int32", False), ("uint8", "int16", False), ("int8", "uint32", False),
    ("bool_", "int8", True), ("int64", "float16", True), ("uint64", "bfloat16", True),
    ("float16", "bfloat16", False), ("bfloat16", "float32", True), ("float64", "float32", False),
    ("int32", "bool_", False), ("float8_e4m3fn", "float32", False),
    ("float8_e4m3fn", "float8_e4m3fn", True), ("float32", "float8_e5m2", False),
    ("uint16", "uint64", True), ("uint32", "uint32", True),
])
def test_implicit_casts_follow_the_promotion_table(src, dst, ok):
    assert internals.is_implicit_cast_ok(_dtypes.ALL[src], _dtypes.ALL[dst]) is ok


def test_internal_machinery_says_tile2cu_lacks_it():
    for call in (lambda: internals.compile_tile(None, []),
                 lambda: internals.float_to_bits(1.0, internals.SimpleType.F8E5M3FNU),
                 lambda: internals.static_def(lambda self: None)):
        with pytest.raises(ct.TileUnsupportedFeatureError, match="tile2cu does not have"):
            call()
    assert {"cuda.tile._ir.cast_ops", "cuda.tile._ir.ops", "cuda.tile._execution",
            "cuda.tile._bytecode.float"} <= set(internals.modules())


def test_subprocesses_of_a_suite_run_get_the_stand_ins(tmp_path):
    # test_assert.py runs its own file in a subprocess, which imports util.py, which imports
    # cuda.tile._compile.get_sm_arch: only the pytest processes load the plugin, so the runner's
    # PYTHONPATH (tests/upstream/sitecustomize.py) installs the stand-ins in every process.
    import subprocess
    import run_suite
    probe = ("import cuda.tile as ct, tile2cu.cutile\n"
             "from cuda.tile._compile import get_sm_arch\n"
             "import cuda.tile._ir.cast_ops\n"
             "from cuda.tile._compile import _get_max_supported_bytecode_version as version\n"
             "assert ct is tile2cu.cutile\n"
             "assert version('/tmp') == 130400, version('/tmp')\n")   # the suite's answer
    env = run_suite.environment(tmp_path, "13.4")
    proc = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
