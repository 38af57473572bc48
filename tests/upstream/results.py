"""The results of a run over cuTile's test suite: one JSON object a line, written by the pytest
plugin as each test finishes (so a run cut short keeps what it did), read back by run_suite.py
for the summary.

Lines, by "kind":
  start          {"upstream": folder, "stand_ins": [...], "time": unix seconds}
  collected      {"count": N}: tests pytest collected (after -k), out-of-scope ones included
  test           {"id", "outcome": passed|failed|error|skipped|xfailed|xpassed|interrupted, "cause",
                  "out_of_scope": reason or null, "scope_line": its out_of_scope.txt line, "seconds"}
  collect_error  {"id": file, "cause", "functions": test functions in the file (it did not import,
                  so its parametrizations are unknown)}
  finish         {"exitstatus"}
"""

from __future__ import annotations

import ast
import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

# ---- what a failure is about -------------------------------------------------------------------

_HEX = re.compile(r"0x[0-9a-fA-F]+")
_PATH = re.compile(r"(?:[A-Za-z]:)?(?:/[^\s/:'\"()\[\],]+)+/([^\s/:'\"()\[\],]+)")
_NUMBER = re.compile(r"(?<![A-Za-z_])[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?")
_SPACES = re.compile(r"\s+")
CAUSE_WIDTH = 160


def normalise_cause(text: str) -> str:
    """The first line of an exception, with what differs between instances of one cause
    (addresses, paths, numbers) made equal: `Shapes (16,) and (32,) are not broadcastable` and
    `Shapes (8,) and (4,) ...` count as one cause."""
    first = ""
    for line in (text or "").splitlines():
        line = line.strip()
        if line.startswith("E "):
            line = line[1:].strip()
        if line:
            first = line
            break
    first = _HEX.sub("<address>", first)
    first = _PATH.sub(r"…/\1", first)
    first = _NUMBER.sub("N", first)
    first = _SPACES.sub(" ", first).strip()
    if len(first) > CAUSE_WIDTH:
        first = first[:CAUSE_WIDTH - 1] + "…"
    return first or "(no message)"


def count_test_functions(path: Path) -> int:
    """`def test_*` at the top level of a file and in its Test* classes (what pytest would collect
    before parametrization)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return 1
    n = 0
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            n += 1
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            n += sum(1 for m in node.body
                     if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name.startswith("test"))
    return max(n, 1)


# ---- reading a results file --------------------------------------------------------------------

@dataclass
class Run:
    tests: dict[str, dict] = field(default_factory=dict)
    collect_errors: dict[str, dict] = field(default_factory=dict)
    collected: int | None = None
    start: dict | None = None
    finish: dict | None = None
    bad_lines: int = 0


def read(path: Path) -> Run:
    return read_all([path])


def read_all(paths: list[Path]) -> Run:
    """One Run from the results of runs over disjoint test files (their collected counts add)."""
    run = Run()
    lines = [line for path in paths if path.is_file()
             for line in path.read_text(encoding="utf-8", errors="replace").splitlines()]
    for line in lines:
        try:
            rec = json.loads(line)
        except ValueError:
            run.bad_lines += 1      # a line cut by a kill
            continue
        kind = rec.get("kind")
        if kind == "test":
            run.tests[rec["id"]] = rec
        elif kind == "collect_error":
            run.collect_errors[rec["id"]] = rec
        elif kind == "collected":
            run.collected = (run.collected or 0) + rec["count"]
        elif kind == "start":
            run.start = run.start or rec
        elif kind == "finish":
            run.finish = rec
    return run


# ---- the summary -------------------------------------------------------------------------------

def _pct(n: int, total: int) -> str:
    return f"{100.0 * n / total:.1f}%" if total else "-"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def summary(run: Run, scope_entries=None, top: int = 40) -> str:
    """Markdown tables: outcomes, failures by cause, skips by reason, out of scope by reason.
    With `scope_entries` (scope.Entry list, for a whole run: no -k), also the entries that
    matched no test."""
    in_scope = [t for t in run.tests.values() if not t.get("out_of_scope")]
    out_of_scope = [t for t in run.tests.values() if t.get("out_of_scope")]
    by_outcome = Counter(t["outcome"] for t in in_scope)
    import_failures = sum(e["functions"] for e in run.collect_errors.values())
    not_run = 0
    if run.collected is not None:
        not_run = max(0, run.collected - len(run.tests))
    not_run += by_outcome["interrupted"]
    failed = by_outcome["failed"] + by_outcome["error"]
    total = len(in_scope) + import_failures + not_run

    lines = ["| outcome | tests | % of in-scope |", "|---|---:|---:|"]
    rows = [("passed", by_outcome["passed"]),
            ("failed", failed),
            ("failed: file did not import (counted per test function)", import_failures),
            ("skipped", by_outcome["skipped"]),
            ("xfailed (expected failures, as cuTile marks them)", by_outcome["xfailed"]),
            ("xpassed", by_outcome["xpassed"]),
            ("not run (time budget or crash)", not_run)]
    for name, n in rows:
        if n or name in ("passed", "failed", "skipped"):
            lines.append(f"| {name} | {n} | {_pct(n, total)} |")
    lines.append(f"| **in scope** | **{total}** | 100% |")
    lines.append(f"| out of scope (not counted above) | {len(out_of_scope)} | |")

    def grouped(title, records, key, example=True, what="cause"):
        groups = defaultdict(list)
        for r in records:
            groups[key(r)].append(r["id"])
        if not groups:
            return []
        out = ["", f"### {title}", "", f"| tests | % of in-scope | {what} | example |" if example
               else "| tests | reason |", "|---:|---:|---|---|" if example else "|---:|---|"]
        ranked = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        for cause, ids in ranked[:top]:
            if example:
                out.append(f"| {len(ids)} | {_pct(len(ids), total)} | {_cell(cause)} | `{_cell(min(ids))}` |")
            else:
                out.append(f"| {len(ids)} | {_cell(cause)} |")
        if len(ranked) > top:
            rest = sum(len(ids) for _, ids in ranked[top:])
            out.append(f"| {rest} | | ({len(ranked) - top} more) | |" if example
                       else f"| {rest} | ({len(ranked) - top} more reasons) |")
        return out

    lines += grouped("Failed, by cause", [t for t in in_scope if t["outcome"] in ("failed", "error")],
                     lambda t: t.get("cause") or "(no message)")
    if run.collect_errors:
        lines += ["", "### Files that did not import", "", "| test functions | file | cause |",
                  "|---:|---|---|"]
        for fid, e in sorted(run.collect_errors.items()):
            lines.append(f"| {e['functions']} | `{_cell(fid)}` | {_cell(e['cause'])} |")
    lines += grouped("Skipped, by reason", [t for t in in_scope if t["outcome"] == "skipped"],
                     lambda t: t.get("cause") or "(no reason)", what="reason")
    lines += grouped("Out of scope, by reason", out_of_scope, lambda t: t["out_of_scope"], example=False)
    if scope_entries is not None and run.finish is not None:
        used = {t.get("scope_line") for t in out_of_scope}
        unused = [f"`{e.pattern}` (line {e.line})" for e in scope_entries if e.line not in used]
        if unused:
            lines += ["", "Out-of-scope entries that matched no test (renamed upstream?): "
                      + "; ".join(unused)]
    if run.finish is None:
        lines += ["", "The run did not finish (killed or cut short): the counts are of the tests "
                  "that completed."]
    return "\n".join(lines)
