#!/usr/bin/env python3
"""CPU-only check of the harness for cuTile's own test suite (ctest upstream_suite_harness):

1. out_of_scope.txt parses, and each entry names a file (and function or class) that exists
   in the suite, so a rename upstream is noticed here rather than as a silently wider scope;
2. every name cuTile's test/conftest.py and test/util.py import from `cuda.tile...` resolves with
   the plugin loaded (tile2cu's alias plus standins.py);
3. where torch is installed: `pytest --collect-only` over the whole suite through the plugin,
   with no GPU (--tile2cu-assume-cc), and no file may fail to import for a reason that is not
   already known (listed here with the missing name).

usage: check_collect.py [UPSTREAM_DIR]   (default: ../shared/upstream/cutile-python beside the
       checkout). Exit 77 (skipped) when the suite is not there; step 3 is skipped, with exit 77,
       when torch is not installed.
"""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SKIP = 77


def check_scope_names(test_dir: Path) -> list[str]:
    sys.path.insert(0, str(HERE))
    import scope
    errors = []
    try:
        entries = scope.load()
    except scope.ScopeListError as e:
        return [str(e)]
    files = sorted(p.name for p in test_dir.glob("test_*.py"))
    for e in entries:
        if e.marker is not None:
            continue
        file_pattern, _, rest = e.pattern.partition("::")
        matched = [f for f in files if scope.glob_match(f, file_pattern)]
        if not matched:
            errors.append(f"{scope.LIST_FILE}:{e.line}: no test file matches {file_pattern!r}")
            continue
        first = rest.split("::", 1)[0].split("[", 1)[0]
        if not first or "*" in first or "?" in first:
            continue
        names = set()
        for f in matched:
            tree = ast.parse((test_dir / f).read_text(encoding="utf-8"))
            names |= {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        if first not in names:
            errors.append(f"{scope.LIST_FILE}:{e.line}: {file_pattern} has no test {first!r}")
    return errors


def check_conftest_imports(test_dir: Path) -> list[str]:
    sys.path[:0] = [str(HERE), str(REPO / "python")]
    import tile2cu_conformance  # noqa: F401 - installs the alias and the stand-ins
    errors = []
    for name in ("conftest.py", "util.py"):
        tree = ast.parse((test_dir / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("cuda.tile"):
                where = f"{test_dir / name}:{node.lineno}"
                try:
                    module = importlib.import_module(node.module)
                except ImportError as e:
                    errors.append(f"{where}: {e}")
                    continue
                for alias in node.names:
                    if not hasattr(module, alias.name):
                        try:
                            importlib.import_module(f"{node.module}.{alias.name}")
                        except ImportError:
                            errors.append(f"{where}: {node.module} has no {alias.name}")
    return errors


# A file may fail to import because it names a cuTile internal that tile2cu has no stand-in for
# (the GPU run reports those); any other cause (torch, the plugin, a missing GPU) fails the check.
def _known_import_failure(cause: str) -> bool:
    no_gpu_here = "NVIDIA driver" in cause      # a file that makes CUDA tensors at import
    return "cuda.tile" in cause or "'jax'" in cause or no_gpu_here


def check_collection(upstream: Path) -> tuple[list[str], str]:
    sys.path.insert(0, str(HERE))
    import results
    out = Path(os.environ.get("TMPDIR", "/tmp")) / f"tile2cu-upstream-collect-{os.getpid()}"
    out.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, str(HERE / "run_suite.py"), str(upstream), "--jobs", "0", "--out", str(out),
           "--", "--collect-only", "--tile2cu-assume-cc", "9.0"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=110)
    run = results.read(out / "results.jsonl")
    errors = []
    if run.collected is None:
        errors.append("collection did not finish:\n" + r.stdout[-3000:] + r.stderr[-3000:])
    for fid, e in sorted(run.collect_errors.items()):
        if not _known_import_failure(e["cause"]):
            errors.append(f"{fid}: {e['cause']}")
    note = (f"collected {run.collected} tests; {len(run.collect_errors)} files did not import "
            f"(known causes): " + ", ".join(sorted(run.collect_errors)))
    return errors, note


def main(argv) -> int:
    upstream = Path(argv[0]) if argv else REPO.parent / "shared" / "upstream" / "cutile-python"
    test_dir = upstream / "test"
    if not (test_dir / "conftest.py").is_file():
        print(f"skipped: no cuTile test suite at {test_dir}")
        return SKIP
    errors = check_scope_names(test_dir) + check_conftest_imports(test_dir)
    if errors:
        print("\n".join(errors))
        return 1
    print("out_of_scope.txt names existing tests; conftest.py and util.py imports resolve")
    try:
        import torch  # noqa: F401
    except ImportError:
        print("skipped: torch is not installed, so the suite cannot be collected here")
        return SKIP
    errors, note = check_collection(upstream)
    print(note)
    if errors:
        print("\n".join(errors))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
