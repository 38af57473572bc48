"""`python -m tile2cu run`: unmodified scripts see tile2cu.cutile as `cuda.tile`, including the
submodules scripts import, while a real `cuda` package keeps working."""

import os
import subprocess
import sys
import textwrap

import pytest

from conftest import PACKAGE_PATH

SCRIPT = """
import sys
import cuda.tile as ct
import cuda.tile
from cuda.tile import Constant, kernel, launch
import cuda.tile.tune
from cuda.tile.compilation import export_kernel
from cuda.tile import _datatype, _exception     # cuTile's test/util.py does this
assert _datatype.float16 is ct.float16 and _exception.TileTypeError is ct.TileTypeError
assert ct.__name__ == "tile2cu.cutile", ct.__name__
assert cuda.tile is ct and Constant is ct.Constant and kernel is ct.kernel
assert cuda.tile.tune.exhaustive_search
try:
    import cuda.tile._ir
except ModuleNotFoundError:
    pass
else:
    raise SystemExit("cuda.tile internals must not resolve")
print("argv", sys.argv[1:], __name__)
"""


def run(args, cwd, extra_path=()):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*PACKAGE_PATH, *map(str, extra_path)])
    return subprocess.run([sys.executable, "-m", "tile2cu", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


def test_run_script(tmp_path):
    (tmp_path / "script.py").write_text(SCRIPT)
    r = run(["run", "script.py", "--flag", "1"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "argv ['--flag', '1'] __main__" in r.stdout


def test_run_module(tmp_path):
    (tmp_path / "mod_script.py").write_text(SCRIPT)
    r = run(["run", "-m", "mod_script", "x"], tmp_path, [tmp_path])
    assert r.returncode == 0, r.stderr
    assert "argv ['x'] __main__" in r.stdout


def test_real_cuda_package_still_imports(tmp_path):
    pkg = tmp_path / "site" / "cuda" / "bindings"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("VALUE = 42\n")
    (tmp_path / "script.py").write_text(SCRIPT + textwrap.dedent("""
        import cuda.bindings
        assert cuda.bindings.VALUE == 42 and cuda.tile is ct
        print("bindings ok")
    """))
    r = run(["run", "script.py"], tmp_path, [tmp_path / "site"])
    assert r.returncode == 0, r.stderr
    assert "bindings ok" in r.stdout


def test_script_errors_keep_their_traceback(tmp_path):
    (tmp_path / "fails.py").write_text("import cuda.tile as ct\nraise ValueError('boom')\n")
    r = run(["run", "fails.py"], tmp_path)
    assert r.returncode == 1 and "ValueError: boom" in r.stderr and "fails.py" in r.stderr


def test_usage(tmp_path):
    r = run([], tmp_path)
    assert r.returncode == 2 and "python -m tile2cu run script.py" in r.stderr


def test_cache_command(tmp_path):
    cache = tmp_path / "kernels"
    (cache / "ab").mkdir(parents=True)
    env_run = dict(os.environ, TILE2CU_CACHE_DIR=str(cache), PYTHONPATH=os.pathsep.join(PACKAGE_PATH))
    r = subprocess.run([sys.executable, "-m", "tile2cu", "cache"], env=env_run, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == str(cache)
    r = subprocess.run([sys.executable, "-m", "tile2cu", "cache", "--clear"], env=env_run,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and not cache.exists()


SPAWN_SCRIPT = """
import multiprocessing as mp
import cuda.tile as ct


def child(queue):
    import cuda.tile
    queue.put(cuda.tile.__name__)


if __name__ == "__main__":
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    p = ctx.Process(target=child, args=(queue,))
    p.start()
    print("child sees", queue.get(timeout=30))
    p.join()
    raise SystemExit(p.exitcode)
"""


def test_spawned_workers_see_the_alias(tmp_path):
    # cuTile's AllGatherMatmul sample starts its ranks with torch.multiprocessing.spawn, whose
    # children import the script again: they must find cuda.tile as the parent does.
    (tmp_path / "spawner.py").write_text(SPAWN_SCRIPT)
    r = run(["run", "spawner.py"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "child sees tile2cu.cutile" in r.stdout


def test_another_sitecustomize_still_runs(tmp_path):
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text("import os\nos.environ['OTHER_SITE'] = 'ran'\n")
    (tmp_path / "child.py").write_text(
        "import subprocess, sys\n"
        "out = subprocess.run([sys.executable, '-c', 'import os, cuda.tile as ct; "
        "print(ct.__name__, os.environ.get(\"OTHER_SITE\"))'], capture_output=True, text=True)\n"
        "print(out.stdout, out.stderr)\n")
    r = run(["run", "child.py"], tmp_path, extra_path=[tmp_path / "site"])
    assert r.returncode == 0, r.stderr
    assert "tile2cu.cutile ran" in r.stdout, r.stdout


PRIVATE_SCRIPT = """
from cuda.tile._cext import get_compute_capability, dev_features_enabled
from cuda.tile._bytecode.version import BytecodeVersion
from cuda.tile._compile import _get_max_supported_bytecode_version
assert dev_features_enabled() is False
assert _get_max_supported_bytecode_version("/tmp", allow_dev=False) < BytecodeVersion.V_13_3
assert callable(get_compute_capability)
print("private imports ok")
"""


def test_bytecode_version_answer_can_be_set(tmp_path, monkeypatch):
    # Conservative by default; cuTile's test suite runs with the reference's version (13.4).
    from tile2cu import _private_modules as pm
    monkeypatch.delenv("TILE2CU_BYTECODE_VERSION", raising=False)
    assert pm._max_supported_bytecode_version("/tmp") == pm.BytecodeVersion.V_13_1
    monkeypatch.setenv("TILE2CU_BYTECODE_VERSION", "13.4")
    assert pm._max_supported_bytecode_version("/tmp") == pm.BytecodeVersion.V_13_4
    monkeypatch.setenv("TILE2CU_BYTECODE_VERSION", "12.9")
    with pytest.raises(ValueError, match="expected one of 13.1, 13.2"):
        pm._max_supported_bytecode_version("/tmp")


def test_private_modules_block_scaled_sample_imports(tmp_path):
    # cuTile's BlockScaledMatMul sample imports these before it checks the architecture.
    (tmp_path / "private.py").write_text(PRIVATE_SCRIPT)
    r = run(["run", "private.py"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "private imports ok" in r.stdout
