#!/usr/bin/env python3
"""Runs cuTile's own test suite (cutile-python's test/test_*.py), unchanged, against tile2cu
(issue 23, item 3), and prints what passed, what failed and why, what was skipped and what is out
of scope (see docs/cutile-conformance.md).

usage: run_suite.py UPSTREAM_DIR [--jobs N] [--timeout S] [--budget S] [--junit FILE]
                    [-k EXPR] [--out DIR] [--cache-dir DIR] [-- PYTEST_ARGS...]
       run_suite.py --summarize RESULTS_FILE       (the table again, from a finished or cut run)

UPSTREAM_DIR is a cutile-python checkout (or its test/ folder); nothing in it is changed (no
bytecode, no .pytest_cache). `import cuda.tile` resolves to tile2cu through the alias (this
checkout's python/ and its _site/ on PYTHONPATH); the tile2cu binary is $TILE2CU_BIN or the
checkout's build/tile2cu; every worker shares one kernel cache, $TILE2CU_CACHE_DIR or
out/upstream-kernel-cache in this checkout. Tests run in pytest-xdist workers (-n JOBS) where it is installed; --timeout
is per test (pytest-timeout), --budget the whole run's wall time: when it runs out, pytest is
interrupted and the summary counts what finished. OUT (default out/upstream in this checkout)
gets results.jsonl (one line per test, written as they finish), pytest.log, summary.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))
import results  # noqa: E402
import scope  # noqa: E402

DEFAULT_CACHE = REPO / "out" / "upstream-kernel-cache"
PROGRESS_EVERY_S = 60
GRACE_S = 60          # after the budget's SIGINT, for pytest to write its reports


def fail(message: str, code: int = 2):
    print(f"run_suite.py: error: {message}", file=sys.stderr)
    sys.exit(code)


def find_test_dir(upstream: Path) -> Path:
    for candidate in (upstream / "test", upstream):
        if (candidate / "conftest.py").is_file() and (candidate / "util.py").is_file():
            return candidate
    fail(f"{upstream}: no cuTile test suite here (expected {upstream}/test/conftest.py and util.py)")


def tile2cu_binary() -> Path:
    sys.path.insert(0, str(REPO / "python"))
    try:
        from tile2cu import _build
        return _build.find_tool()
    except (ImportError, FileNotFoundError) as e:
        fail(f"tile2cu: {e}")


def has_module(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


def parse_args(argv):
    extra = []
    if "--" in argv:
        cut = argv.index("--")
        argv, extra = argv[:cut], argv[cut + 1:]
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("upstream", nargs="?", type=Path, help="cutile-python checkout (or its test/ folder)")
    p.add_argument("--jobs", "-j", default="auto",
                   help="pytest-xdist workers (a number, or auto: one per CPU); 0 or 1: no xdist")
    p.add_argument("--dist", default="load", help="pytest-xdist distribution mode (default: load)")
    p.add_argument("--timeout", type=float, default=600, help="seconds per test (pytest-timeout)")
    p.add_argument("--budget", type=float, default=None,
                   help="seconds for the whole run; then pytest is interrupted and the tests that "
                        "finished are summarized")
    p.add_argument("--junit", type=Path, help="also write a JUnit XML report here")
    p.add_argument("-k", dest="keyword", help="pytest -k expression (select tests)")
    p.add_argument("--out", type=Path, default=REPO / "out" / "upstream",
                   help="folder for results.jsonl, pytest.log, summary.md (default: out/upstream)")
    p.add_argument("--cache-dir", type=Path, default=None,
                   help="kernel cache shared by all workers (default: $TILE2CU_CACHE_DIR, else out/upstream-kernel-cache)")
    p.add_argument("--scope", type=Path, default=scope.LIST_FILE, help="the out-of-scope list")
    p.add_argument("--files", nargs="+", metavar="GLOB",
                   help="run only the test files matching these patterns (test_[a-f]*.py, ...): a "
                        "suite too long for one budget is run in parts over disjoint files")
    p.add_argument("--bytecode-version", default="13.4", metavar="X.Y",
                   help="the Tile IR bytecode version cuda.tile answers (TILE2CU_BYTECODE_VERSION): "
                        "cuTile's tests of later features skip below theirs. Default 13.4, the "
                        "tileiras of the cuTile tile2cu is compared with (docs/cutile-reference.md)")
    p.add_argument("--summarize", type=Path, nargs="+", metavar="RESULTS",
                   help="only print the summary of earlier runs' results.jsonl (several: runs "
                        "over disjoint files, summarized as one)")
    args = p.parse_args(argv)
    if args.summarize is None and args.upstream is None:
        p.error("UPSTREAM_DIR is required (or --summarize RESULTS)")
    return args, extra


def jobs_count(text: str) -> int:
    if text == "auto":
        return os.cpu_count() or 1
    try:
        n = int(text)
    except ValueError:
        fail(f"--jobs {text!r}: expected a number or auto")
    if n < 0:
        fail(f"--jobs {n}: must be 0 or more")
    return n


def environment(cache_dir: Path, bytecode_version: str) -> dict:
    env = dict(os.environ)
    env["TILE2CU_BYTECODE_VERSION"] = bytecode_version
    path = [str(HERE), str(REPO / "python" / "tile2cu" / "_site"), str(REPO / "python")]
    path += [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(path))
    env["TILE2CU_CACHE_DIR"] = str(cache_dir)
    env["PYTHONDONTWRITEBYTECODE"] = "1"        # write nothing into the upstream tree
    # cuTile's pytest.ini sets these through pytest-env, which may not be installed.
    env.setdefault("CUDA_TILE_COMPILER_TIMEOUT_SEC", "60")
    env.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    return env


def pytest_command(args, test_dir: Path, results_file: Path, jobs: int, extra) -> tuple[list, list]:
    """The command, and notes on what it leaves out because a plugin is missing."""
    notes = []
    addopts = "--strict-markers"
    if has_module("pytest_benchmark"):
        addopts += " --benchmark-sort=name"     # as cuTile's pytest.ini has it
    targets = [str(test_dir)]
    if args.files:
        targets = sorted({str(f) for pattern in args.files for f in test_dir.glob(pattern)})
        if not targets:
            fail(f"--files {' '.join(args.files)}: no file of {test_dir} matches")
    cmd = [sys.executable, "-m", "pytest", *targets,
           "-p", "tile2cu_conformance", "-p", "no:cacheprovider",
           "-o", f"addopts={addopts}",
           # cuTile's pytest.ini collects bench_*.py too; the suite is test_*.py.
           "-o", "python_files=test_*.py", "-o", "python_functions=test_*",
           "--continue-on-collection-errors", "-q", "-rfE",
           "--tile2cu-results", str(results_file), "--tile2cu-scope", str(args.scope.resolve())]
    if args.junit:
        cmd += ["--junitxml", str(args.junit.resolve())]
    if args.keyword:
        cmd += ["-k", args.keyword]
    if jobs > 1:
        if has_module("xdist"):
            cmd += ["-n", str(jobs), "--dist", args.dist]
        else:
            notes.append(f"pytest-xdist is not installed: running serially, not in {jobs} workers")
    if args.timeout:
        if has_module("pytest_timeout"):
            cmd += ["--timeout", str(args.timeout)]
        else:
            notes.append("pytest-timeout is not installed: no per-test timeout")
    return cmd + list(extra), notes


def progress(results_file: Path, started: float) -> str:
    run = results.read(results_file)
    done = len(run.tests)
    counts = {}
    for t in run.tests.values():
        key = "out of scope" if t.get("out_of_scope") else t["outcome"]
        counts[key] = counts.get(key, 0) + 1
    of = f"/{run.collected}" if run.collected is not None else ""
    parts = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
    return f"[{time.monotonic() - started:6.0f} s] {done}{of} tests done ({parts or 'none yet'})"


def run_pytest(cmd, env, cwd: Path, log: Path, results_file: Path, budget: float | None):
    """pytest's exit status, and whether the budget cut it short."""
    started = time.monotonic()
    with open(log, "w", encoding="utf-8") as out:
        proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        cut, interrupted_at, next_progress = False, None, started + PROGRESS_EVERY_S
        try:
            while proc.poll() is None:
                time.sleep(1)
                now = time.monotonic()
                if now >= next_progress:
                    print(progress(results_file, started), flush=True)
                    next_progress = now + PROGRESS_EVERY_S
                if budget is not None and interrupted_at is None and now - started > budget:
                    print(f"run_suite.py: the {budget:.0f} s budget is spent: interrupting pytest",
                          flush=True)
                    cut, interrupted_at = True, now
                    os.killpg(proc.pid, signal.SIGINT)
                if interrupted_at is not None and now - interrupted_at > GRACE_S:
                    os.killpg(proc.pid, signal.SIGKILL)
                    break
        except KeyboardInterrupt:
            os.killpg(proc.pid, signal.SIGINT)
            cut = True
            try:
                proc.wait(GRACE_S)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        code = proc.wait()
    return code, cut


def summarize(results_files: list[Path], scope_file: Path, whole_run: bool) -> str:
    entries = scope.load(scope_file) if whole_run else None
    return results.summary(results.read_all(results_files), entries)


def main(argv) -> int:
    args, extra = parse_args(argv)
    if args.summarize is not None:
        for path in args.summarize:
            if not path.is_file():
                fail(f"{path}: no such results file")
        print(summarize(args.summarize, args.scope, whole_run=False))
        return 0

    upstream = args.upstream.resolve()
    test_dir = find_test_dir(upstream)
    try:
        scope.load(args.scope)                  # a bad line stops here, with its line number
    except (OSError, scope.ScopeListError) as e:
        fail(str(e))
    if not has_module("pytest"):
        fail(f"pytest is not installed for {sys.executable}")
    binary = tile2cu_binary()
    jobs = jobs_count(args.jobs)
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    # Not under OUT by default: OUT may be a folder whose files are copied back from the GPU machine.
    cache_dir = (args.cache_dir or (Path(os.environ["TILE2CU_CACHE_DIR"]) if os.environ.get("TILE2CU_CACHE_DIR")
                                    else DEFAULT_CACHE)).resolve()
    cache_dir.mkdir(parents=True, exist_ok=True)
    results_file, log = out / "results.jsonl", out / "pytest.log"
    results_file.unlink(missing_ok=True)
    env = environment(cache_dir, args.bytecode_version)
    cmd, notes = pytest_command(args, test_dir, results_file, jobs, extra)

    print(f"cuTile suite:  {test_dir}")
    print(f"tile2cu:       {binary}")
    print(f"kernel cache:  {cache_dir}")
    print(f"workers:       {jobs if jobs > 1 and has_module('xdist') else 1}"
          f"; per-test timeout {args.timeout:g} s; budget {f'{args.budget:g} s' if args.budget else 'none'}")
    print(f"pytest log:    {log}")
    for note in notes:
        print(f"note: {note}")
    print("command:       " + " ".join(cmd), flush=True)

    code, cut = run_pytest(cmd, env, upstream if test_dir != upstream else test_dir.parent, log,
                           results_file, args.budget)
    table = summarize([results_file], args.scope, whole_run=not (args.keyword or args.files or extra or cut))
    header = f"pytest exit status {code}" + (" (cut short by --budget)" if cut else "")
    (out / "summary.md").write_text(f"{header}\n\n{table}\n", encoding="utf-8")
    print()
    print(header)
    print()
    print(table)
    if code in (0, 1) or cut:
        return 0
    tail = log.read_text(encoding="utf-8", errors="replace").splitlines()[-40:]
    print("\nrun_suite.py: pytest did not complete; the end of its log:\n" + "\n".join(tail), file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
