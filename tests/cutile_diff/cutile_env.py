"""The virtual environment that holds real cuTile for the differential tests.

`ensure_venv(dir)` creates `dir` with the pinned requirements.txt beside this file (once: a copy
of the requirements in the environment marks it as done) and returns its python. When the
environment cannot be made (no network, no venv module, pip fails) it raises Unavailable with
the reason, which the callers turn into a skipped test (exit 77), never a failure.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REQUIREMENTS = HERE / "requirements.txt"
STAMP = "tile2cu-requirements.txt"
SKIP = 77  # ctest SKIP_RETURN_CODE


class Unavailable(RuntimeError):
    pass


def venv_python(venv: Path) -> Path:
    return venv / "bin" / "python"


def _run(argv, timeout):
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.SubprocessError) as e:
        raise Unavailable(f"{' '.join(map(str, argv[:4]))} ...: {e}") from None
    if p.returncode != 0:
        tail = (p.stdout + p.stderr).strip().splitlines()[-6:]
        raise Unavailable(f"{' '.join(map(str, argv[:4]))} ... exited {p.returncode}:\n    "
                          + "\n    ".join(tail))
    return p


def ensure_venv(venv: Path, *, quiet: bool = False) -> Path:
    venv = Path(venv)
    py = venv_python(venv)
    wanted = REQUIREMENTS.read_text()
    stamp = venv / STAMP
    if py.exists() and stamp.exists() and stamp.read_text() == wanted:
        return py
    if not quiet:
        print(f"installing cuTile into {venv} (pinned: {REQUIREMENTS.name}) ...", flush=True)
    _run([sys.executable, "-m", "venv", "--clear", str(venv)], timeout=300)
    _run([str(py), "-m", "pip", "install", "--disable-pip-version-check", "-q",
          "-r", str(REQUIREMENTS)], timeout=1800)
    _run([str(py), "-c", "import cuda.tile, cuda.tile.compilation"], timeout=120)
    stamp.write_text(wanted)
    return py


def reexec_in_venv(venv: Path, script: str, argv: list) -> None:
    """Runs `script argv` under the environment's python (replacing this process), or exits
    with SKIP and a clear message when the environment cannot be made. Returns only when
    already running inside it."""
    if os.environ.get("TILE2CU_CUTILE_VENV") == str(Path(venv).resolve()):
        return
    try:
        py = ensure_venv(venv)
    except Unavailable as e:
        print(f"SKIPPED: real cuTile could not be installed, so the differential tests did not "
              f"run.\n  reason: {e}")
        sys.exit(SKIP)
    env = dict(os.environ, TILE2CU_CUTILE_VENV=str(Path(venv).resolve()))
    sys.stdout.flush()
    os.execve(str(py), [str(py), script, *argv], env)
