"""`python -m tile2cu doctor` and the `tile2cu` command of the wheel (tile2cu._console): what
they find, and what they say when something is missing."""

import os
import subprocess
import sys

from conftest import PACKAGE_PATH
from tile2cu.version import __version__


def run(args, **env):
    full = dict(os.environ, PYTHONPATH=os.pathsep.join(PACKAGE_PATH), **env)
    return subprocess.run([sys.executable, *args], env=full, capture_output=True, text=True,
                          timeout=120)


def test_doctor_finds_the_binary_and_is_ready_to_compile(tmp_path):
    r = run(["-m", "tile2cu", "doctor"], TILE2CU_ARCH="sm_90a", TILE2CU_CACHE_DIR=str(tmp_path / "c"))
    lines = r.stdout.splitlines()
    binary = next(ln for ln in lines if ln.split()[1:2] == ["binary"])
    assert binary.split()[0] == "ok" and binary.endswith(f"(tile2cu {__version__})"), r.stdout
    assert any(ln.split()[:2] == ["ok", "runtime"] for ln in lines), r.stdout
    assert any(ln.split()[:2] == ["ok", "cache"] and str(tmp_path / "c") in ln for ln in lines)
    if any(ln.split()[:2] == ["ok", "nvcc"] for ln in lines):
        assert r.returncode == 0 and lines[-1] == "ready to compile (TILE2CU_ARCH is set)", r.stdout
    else:
        assert r.returncode == 1


def test_doctor_says_what_is_missing_and_the_fix(tmp_path):
    r = run(["-m", "tile2cu", "doctor"], TILE2CU_BIN=str(tmp_path / "nope"),
            TILE2CU_NVCC=str(tmp_path / "no-nvcc"), TILE2CU_ARCH="sm_80")
    assert r.returncode == 1
    lines = r.stdout.splitlines()
    for what in ("binary", "nvcc"):
        i = next(i for i, ln in enumerate(lines) if ln.split()[:2] == ["missing", what])
        assert lines[i + 1].split()[0] == "fix:", r.stdout
    assert lines[-1] == "2 thing(s) missing: see the fix lines above"


def test_console_script_runs_the_binary(tmp_path):
    src = tmp_path / "k.py"
    src.write_text("import cuda.tile as ct\n\n@ct.kernel\ndef k(a):\n    ct.store(a, (0,), ct.load(a, (0,), (16,)))\n")
    console = "import sys; from tile2cu._console import main; sys.argv[0] = 'tile2cu'; main()"
    r = run(["-c", console, "--version"])
    assert r.returncode == 0 and r.stdout == f"tile2cu {__version__}\n", r
    r = run(["-c", console, str(src), "--kernel", "k", "--sig", "a=float32[?]", "--emit=cu"])
    assert r.returncode == 0 and "__global__" in r.stdout, r.stderr
    r = run(["-c", console, str(src), "--kernel", "k", "--sig", "a=float32[?]", "--emit=cu"],
            TILE2CU_BIN=str(tmp_path / "nope"))
    assert r.returncode == 127 and "TILE2CU_BIN=" in r.stderr
