"""pytest plugin for running cuTile's own test suite (cutile-python's test/) against tile2cu,
unchanged (issue 23, item 3). Load it with `-p tile2cu_conformance`, this folder on PYTHONPATH
(tests/upstream/run_suite.py does both, and more).

It
  - supplies what the suite's conftest.py and util.py import from cuTile internals, where tile2cu
    has an honest answer (standins.py), before conftest.py is imported;
  - reports the tests listed in out_of_scope.txt as skipped, "out of scope: REASON"; files listed
    whole are not imported at all (most import cuTile's IR), one skipped entry per test function;
  - with --tile2cu-results FILE, appends one JSON line per finished test (results.py), from the
    controlling process only when pytest-xdist runs workers.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results  # noqa: E402
import scope  # noqa: E402
import standins  # noqa: E402

OUT_OF_SCOPE = "tile2cu_out_of_scope"     # the marker, and the user property a report carries:
SCOPE_LINE = "tile2cu_scope_line"         # the reason, and the out_of_scope.txt line that gave it
_STAND_INS = standins.install()           # at import: -p plugins load before conftest.py


def pytest_addoption(parser):
    group = parser.getgroup("tile2cu", "cuTile's suite through tile2cu")
    group.addoption("--tile2cu-results", metavar="FILE", default=None,
                    help="append one JSON line per finished test to FILE (tests/upstream/results.py)")
    group.addoption("--tile2cu-assume-cc", metavar="MAJOR.MINOR", default=None,
                    help="for --collect-only on a machine without a GPU: the compute capability "
                         "cuda.tile._cext.get_compute_capability answers (util.py asks at import)")
    group.addoption("--tile2cu-scope", metavar="FILE", default=str(scope.LIST_FILE),
                    help="the out-of-scope list (default: tests/upstream/out_of_scope.txt)")


class _BenchmarkHookSpecs:
    """pytest-benchmark's hooks, which cuTile's conftest.py implements: without pytest-benchmark
    installed, pytest refuses them as unknown hooks (under pytest-xdist). Never called here."""

    @pytest.hookspec
    def pytest_benchmark_update_machine_info(self, config, machine_info):
        pass

    @pytest.hookspec
    def pytest_benchmark_update_json(self, config, benchmarks, output_json):
        pass


def pytest_addhooks(pluginmanager):
    import importlib.util
    if importlib.util.find_spec("pytest_benchmark") is None:
        pluginmanager.add_hookspecs(_BenchmarkHookSpecs)


def _is_worker(config) -> bool:
    return hasattr(config, "workerinput")


class _Recorder:
    """Per-test outcome from its setup/call/teardown reports, written when the test is over."""

    def __init__(self, path: str | None):
        self.file = open(path, "a", encoding="utf-8", buffering=1) if path else None
        self.pending: dict[str, dict] = {}
        self.collected_written = False

    def write(self, **record):
        if self.file:
            self.file.write(json.dumps(record) + "\n")

    def report(self, rep):
        rec = self.pending.setdefault(rep.nodeid, {"kind": "test", "id": rep.nodeid, "outcome": None,
                                                   "cause": "", "out_of_scope": None, "seconds": 0.0})
        rec["seconds"] += getattr(rep, "duration", 0.0) or 0.0
        for name, value in getattr(rep, "user_properties", ()):
            if name == OUT_OF_SCOPE:
                rec["out_of_scope"] = value
            elif name == SCOPE_LINE:
                rec["scope_line"] = value
        wasxfail = hasattr(rep, "wasxfail")
        if rep.when in ("setup", "call"):
            if rep.failed:
                rec["outcome"] = "failed" if rep.when == "call" else "error"
                rec["cause"] = _failure_cause(rep)
            elif rep.skipped:
                rec["outcome"] = "xfailed" if wasxfail else "skipped"
                rec["cause"] = _skip_reason(rep)
            elif rep.when == "call":
                rec["outcome"] = "xpassed" if wasxfail else "passed"
        elif rep.when == "teardown":
            if rep.failed and rec["outcome"] in (None, "passed", "skipped"):
                rec["outcome"] = "error"
                rec["cause"] = _failure_cause(rep)
        else:                                  # "???": pytest-xdist's report of a crashed worker
            rec["outcome"] = "failed"
            rec["cause"] = results.normalise_cause(str(rep.longrepr).replace(repr(rep.nodeid), "TEST"))
        if rep.when not in ("setup", "call"):
            self.finish(rep.nodeid)

    def finish(self, nodeid):
        rec = self.pending.pop(nodeid, None)
        if rec is not None:
            if rec["outcome"] is None:          # the session ended while it ran (interrupted)
                rec["outcome"], rec["cause"] = "interrupted", "the run ended while this test ran"
            rec["seconds"] = round(rec["seconds"], 3)
            self.write(**rec)


def _failure_cause(rep) -> str:
    crash = getattr(rep.longrepr, "reprcrash", None)
    if crash is not None and getattr(crash, "message", None):
        return results.normalise_cause(crash.message)
    text = str(rep.longrepr)
    e_lines = [l for l in text.splitlines() if l.startswith("E ")]
    return results.normalise_cause(e_lines[0] if e_lines else text.strip().splitlines()[-1] if text.strip() else "")


def _skip_reason(rep) -> str:
    longrepr = rep.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
    for prefix in ("Skipped: ", "reason: "):
        if reason.startswith(prefix):
            reason = reason[len(prefix):]
    return reason.strip()


def _assume_compute_capability(text: str) -> None:
    try:
        major, minor = (int(x) for x in text.split("."))
    except ValueError:
        raise pytest.UsageError(f"--tile2cu-assume-cc {text!r}: expected MAJOR.MINOR, as 9.0") from None
    sys.modules["cuda.tile._cext"].get_compute_capability = lambda device_id=0: (major, minor)


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    # conftest.py imports util.py, which asks for the compute capability at import: before
    # pytest_configure.
    assumed = getattr(early_config.known_args_namespace, "tile2cu_assume_cc", None)
    if assumed:
        _assume_compute_capability(assumed)


def pytest_configure(config):
    config.addinivalue_line("markers", f"{OUT_OF_SCOPE}(reason): a cuTile-internals test (out_of_scope.txt)")
    config._tile2cu_scope = scope.Scope(scope.load(Path(config.getoption("tile2cu_scope"))))
    config._tile2cu_recorder = None
    if not _is_worker(config):
        config._tile2cu_recorder = _Recorder(config.getoption("tile2cu_results"))
        config._tile2cu_recorder.write(kind="start", time=time.time(), stand_ins=_STAND_INS,
                                       upstream=str(config.rootpath))


def pytest_report_header(config):
    return ["tile2cu conformance: " + line for line in _STAND_INS]


# ---- out of scope ------------------------------------------------------------------------------

def _relative_to_tests(path: Path, config) -> str:
    """A path as out_of_scope.txt names it: relative to the folder of cuTile's conftest.py (the
    suite's test/), whatever the rootdir."""
    for parent in path.parents:
        if (parent / "conftest.py").is_file() and (parent / "util.py").is_file():
            return path.relative_to(parent).as_posix()
    return path.name


def _mark_out_of_scope(item, entry: scope.Entry) -> None:
    item.user_properties += [(OUT_OF_SCOPE, entry.reason), (SCOPE_LINE, entry.line)]


class OutOfScopeItem(pytest.Item):
    def __init__(self, *, entry: scope.Entry, **kwargs):
        super().__init__(**kwargs)
        self.reason = entry.reason
        _mark_out_of_scope(self, entry)

    def runtest(self):
        pytest.skip(f"out of scope: {self.reason}")

    def reportinfo(self):
        return self.path, None, self.name


class OutOfScopeFile(pytest.File):
    """A test file listed whole: its test functions, read from its syntax, never imported."""

    def collect(self):
        import ast
        entry = self.config._tile2cu_scope.file_entry(_relative_to_tests(self.path, self.config))
        tree = ast.parse(self.path.read_text(encoding="utf-8"))
        names = []
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                names.append(node.name)
            elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                names += [f"{node.name}::{m.name}" for m in node.body
                          if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name.startswith("test")]
        for name in names:
            yield OutOfScopeItem.from_parent(self, name=name, entry=entry)


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makemodule(module_path, parent):
    if parent.config._tile2cu_scope.file_entry(_relative_to_tests(module_path, parent.config)):
        return OutOfScopeFile.from_parent(parent, path=module_path)
    return None


def pytest_collection_modifyitems(session, config, items):
    s = config._tile2cu_scope
    for item in items:
        if isinstance(item, OutOfScopeItem):
            continue
        relative = _relative_to_tests(item.path, config) + "::" + item.nodeid.split("::", 1)[1] \
            if "::" in item.nodeid else _relative_to_tests(item.path, config)
        entry = s.test_entry(relative, {m.name for m in item.iter_markers()})
        if entry:
            _mark_out_of_scope(item, entry)
            item.add_marker(pytest.mark.tile2cu_out_of_scope(entry.reason))


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    # Before the skipping plugin's own setup hook, so that a test cuTile would skip for its own
    # reason (no Blackwell, ...) is still reported as out of scope.
    marker = item.get_closest_marker(OUT_OF_SCOPE)
    if marker is not None:
        pytest.skip(f"out of scope: {marker.args[0]}")


# ---- recording ---------------------------------------------------------------------------------

def pytest_collection_finish(session):
    rec = session.config._tile2cu_recorder
    if rec is not None and not rec.collected_written:
        rec.collected_written = True
        rec.write(kind="collected", count=len(session.items))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids):
    rec = node.config._tile2cu_recorder
    if rec is not None and not rec.collected_written:    # every worker collects the same ids
        rec.collected_written = True
        rec.write(kind="collected", count=len(ids))


def pytest_collectreport(report):
    config = _CONFIG.get("config")
    rec = config._tile2cu_recorder if config is not None else None
    if rec is None or not report.failed:
        return
    path = config.rootpath / report.nodeid.split("::", 1)[0]
    functions = results.count_test_functions(path) if path.suffix == ".py" else 1
    rec.write(kind="collect_error", id=report.nodeid, cause=_failure_cause(report), functions=functions)


def pytest_runtest_logreport(report):
    rec = _CONFIG["config"]._tile2cu_recorder if "config" in _CONFIG else None
    if rec is not None:
        rec.report(report)


_CONFIG: dict = {}


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    _CONFIG["config"] = session.config


def pytest_sessionfinish(session, exitstatus):
    rec = session.config._tile2cu_recorder
    if rec is None:
        return
    for nodeid in list(rec.pending):
        rec.finish(nodeid)
    rec.write(kind="finish", exitstatus=int(exitstatus))
    if rec.file:
        rec.file.close()
        rec.file = None
