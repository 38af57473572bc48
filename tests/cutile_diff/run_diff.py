#!/usr/bin/env python3
"""Differential tests against real cuTile (the reference compiler), on the CPU.

    run_diff.py TILE2CU [--venv DIR] [--arch sm_90] [--only SUBSTR] [--write-table [PATH]]
                [--no-cache] [--update-verdicts]

1. Every kernel with a sidecar (samples/**/X.py + X.sigs, tests/**/X.py + X.sigs), every
   specialization: tile2cu must accept it and real cuTile must compile it ahead of time
   (`cuda.tile.compilation.export_kernel`, cubin for --arch) with the KernelSignature that
   python/tile2cu_sig derives from the same signature. A specialization cuTile rejects is a
   wrong sample: the test fails.
2. Every bad-input case tests/bad_inputs/NNN_*.py: both compilers get the kernel and its
   `# sig:`; both must reject it with the same error class. Allowed disagreements: tile2cu's
   message says "not supported yet" (a documented gap of tile2cu), the case is about tile2cu's
   signature text (cuTile has none), or tests/cutile_diff/known_differences.txt gives a reason.
   Any other disagreement fails the test.

Cases are found by globbing, so new samples and bad inputs are covered without edits here.
cuTile's verdict on an unchanged case (same files, signature, pins and converting code) is read
from tests/cutile_diff/cutile_verdicts.json (committed; `--update-verdicts` rewrites it from a
full run) or from the previous run in this venv (verdict_cache.py), so cuTile compiles only what
changed; tile2cu's side always runs. The test itself never writes into the source tree.
The full comparison is written as markdown (default <build>/cutile-differences.md next to the
venv; `--write-table` without a path writes docs/cutile-differences.md, the committed copy).

Runs itself under the virtual environment from tests/cutile_diff/cutile_env.py (made on first
use); when that cannot be made it prints why and exits 77 (ctest: skipped).
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(HERE), str(ROOT / "python"), str(ROOT / "tests" / "bad_inputs")]

import cutile_env  # noqa: E402
from cutile_compile import CASE_TIMEOUT_S, cutile_compile, first_line, load_module  # noqa: E402
from verdict_cache import REFERENCE, VerdictCache  # noqa: E402

NOT_SUPPORTED_YET = "not supported yet"
TILE2CU_ERROR = re.compile(r"^(.*?):(\d+):(\d+): error\[(\w+)\]: (.*)$")


@dataclass
class Verdict:
    case: str
    tile2cu: str            # "accepted" or "Class: message"
    cutile: str             # "accepted" or "Class: message"
    verdict: str            # agree | not-supported-yet | signature-only | known | DISAGREE | ...
    why: str = ""
    detail: dict = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        return self.verdict.isupper()


# ------------------------------------------------------------------------------------------------
# The two compilers
# ------------------------------------------------------------------------------------------------

def run_tile2cu(binary, path, sig, kernel=None):
    """-> (accepted, class, message); never writes files (--emit=ir to stdout)."""
    argv = [binary, str(path), "--emit=ir"]
    if sig is not None:
        argv += ["--sig", sig]
    if kernel:
        argv += ["--kernel", kernel]
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=CASE_TIMEOUT_S,
                           errors="replace", cwd=ROOT)
    except subprocess.TimeoutExpired:
        return False, "Timeout", f"tile2cu ran over {CASE_TIMEOUT_S} s"
    if p.returncode == 0:
        return True, "", ""
    first = (p.stderr.strip().splitlines() or [""])[0]
    m = TILE2CU_ERROR.match(first)
    if not m:
        return False, f"exit{p.returncode}", first
    # cuTile's UnsupportedCallError is a private direct subclass of TileError, which
    # cutile_compile.cutile_class names by that public base.
    cls = "TileError" if m.group(4) == "UnsupportedCallError" else m.group(4)
    return False, cls, f"{m.group(2)}:{m.group(3)}: {m.group(5)}"


def cutile_verdict(cache, case: str, path: Path, sig_text: str, kernel_name, arch: str,
                   module=None):
    """cutile_compile, or the verdict recorded from an earlier run on the very same input."""
    key = cache.key(path, sig_text, kernel_name, arch)
    verdict = cache.get(key, case)
    if verdict is None:
        started = time.monotonic()
        verdict = cutile_compile(path, sig_text, kernel_name, arch, module)
        # A verdict reached at the time limit depends on the machine's load (cuTile may report
        # the alarm as its own TileInternalError): kept only as "Timeout", and only by
        # --update-verdicts in the committed file (verdict_cache.py).
        if time.monotonic() - started < CASE_TIMEOUT_S - 1:
            cache.put(key, verdict)
        else:
            cache.put_over_limit(key, CASE_TIMEOUT_S, verdict[3])
    return verdict


# ------------------------------------------------------------------------------------------------
# The two kinds of cases
# ------------------------------------------------------------------------------------------------

def sidecar_kernels(only: str) -> list:
    """[(kernel file, sidecar)] under samples/ and tests/ (bad inputs carry no sidecars)."""
    found = set()
    for top in ("samples", "tests"):
        for sigs in (ROOT / top).rglob("*.sigs"):
            py = sigs.with_suffix(".py")
            if py.exists() and (not only or only in py.name):
                found.add((py, sigs))
    return sorted(found)


def check_samples(binary, arch, only, cache) -> list:
    from tile2cu_sig import format_signature, parse_sidecar
    out = []
    for py, sigs in sidecar_kernels(only):
        rel = py.relative_to(ROOT)
        try:
            entries = parse_sidecar(sigs.read_text())
            module = load_module(py)
        except Exception as e:  # noqa: BLE001
            out.append(Verdict(str(rel), "-", f"{type(e).__name__}: {first_line(e)}", "FAIL",
                               "the file or its sidecar does not load"))
            continue
        for line_no, sig in entries:
            label = f"{rel.with_suffix('.sigs')}:{line_no} {sig.spec_name or sig.kernel}"
            text = format_signature(sig)
            ok_t, cls_t, msg_t = run_tile2cu(binary, rel, text)
            ok_c, cls_c, msg_c, info = cutile_verdict(cache, label, py, text, sig.kernel, arch,
                                                       module)
            t = "accepted" if ok_t else f"{cls_t}: {msg_t}"
            c = "accepted" if ok_c else f"{cls_c}: {msg_c}"
            if ok_t and ok_c:
                v = Verdict(label, t, c, "agree", detail=info)
            elif not ok_c:
                v = Verdict(label, t, c, "WRONG-SAMPLE", "real cuTile rejects this "
                            "specialization: fix the sample", info)
            else:
                v = Verdict(label, t, c, "TILE2CU-REJECTS", "tile2cu rejects a "
                            "specialization cuTile compiles", info)
            out.append(v)
    return out


def load_known_differences() -> dict:
    known = {}
    path = HERE / "known_differences.txt"
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, why = line.partition(":")
            known[name.strip()] = why.strip()
    return known


def check_bad_inputs(binary, arch, only, cache) -> list:
    from run_bad_inputs import CASE_RE, Case
    known = load_known_differences()
    out = []
    cases = sorted(p for p in (ROOT / "tests" / "bad_inputs").glob("*.py") if CASE_RE.match(p.name))
    for path in cases:
        if only and only not in path.name:
            continue
        case = Case(str(path))
        rel = path.relative_to(ROOT)
        ok_t, cls_t, msg_t = run_tile2cu(binary, rel, case.sig, case.kernel)
        ok_c, cls_c, msg_c, info = cutile_verdict(cache, case.name, path, case.sig or "",
                                                   case.kernel, arch)
        t = "accepted" if ok_t else f"{cls_t}: {msg_t}"
        c = "accepted" if ok_c else f"{cls_c}: {msg_c}"
        v = Verdict(case.name, t, c, "agree", detail=info)
        if ok_t:
            v.verdict, v.why = "TILE2CU-ACCEPTS", "a bad input tile2cu compiles (see bad_inputs)"
        elif cls_t == "SignatureError" or info.get("signature_only"):
            v.verdict, v.why = "signature-only", \
                "the case is about tile2cu's signature text; cuTile takes no such text"
        elif not ok_c and cls_c == cls_t:
            v.verdict = "agree"
        elif NOT_SUPPORTED_YET in msg_t:
            v.verdict, v.why = "not-supported-yet", "tile2cu: documented \"not supported yet\""
            if ok_c:
                v.why += "; cuTile compiles it"
        elif case.name in known:
            v.verdict, v.why = "known", known[case.name]
        else:
            v.verdict = "DISAGREE"
            v.why = ("cuTile compiles it" if ok_c else "different error class") + \
                "; fix tile2cu or give a reason in tests/cutile_diff/known_differences.txt"
        out.append(v)
    stale = sorted(set(known) - {c.case for c in out})
    if stale and not only:
        print(f"note: known_differences.txt names cases that agree or no longer exist: "
              f"{', '.join(stale)}")
    for v in out:
        if v.verdict == "agree" and v.case in known:
            print(f"note: {v.case} now agrees; its line in known_differences.txt can go")
    return out


# ------------------------------------------------------------------------------------------------
# Report
# ------------------------------------------------------------------------------------------------

def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render(samples, bad, arch) -> str:
    import cuda.tile as ct
    import importlib.metadata as md
    tileiras = md.version("nvidia-cuda-tileiras")
    lines = [
        "# tile2cu and real cuTile: where they differ",
        "",
        "Generated by `tests/cutile_diff/run_diff.py` (ctest `cutile_diff`; "
        "`--write-table` rewrites this file). Reference: cuda-tile "
        f"{ct.__version__}, tileiras {tileiras}, `export_kernel` to a cubin for {arch} on the "
        "CPU. See docs/cutile-reference.md for the method.",
        "",
    ]
    counts = {}
    for v in bad:
        counts[v.verdict] = counts.get(v.verdict, 0) + 1
    s_ok = sum(v.verdict == "agree" for v in samples)
    lines += [
        f"- Sample specializations: {len(samples)}, accepted by both: {s_ok}.",
        f"- Bad inputs: {len(bad)}; " + ", ".join(f"{k}: {n}" for k, n in sorted(counts.items())) + ".",
        "",
        "Verdicts: `agree` (same class); `not-supported-yet` (tile2cu's documented gap); "
        "`signature-only` (a case about tile2cu's signature text); `known` (a difference with "
        "its reason in tests/cutile_diff/known_differences.txt); upper case = a failure.",
        "",
        "## Disagreements",
        "",
        "| case | tile2cu | real cuTile | verdict | why |",
        "|---|---|---|---|---|",
    ]
    dis = [v for v in samples + bad if v.verdict != "agree"]
    for v in dis:
        lines.append(f"| {v.case} | {_cell(v.tile2cu)} | {_cell(v.cutile)} | {v.verdict} | "
                     f"{_cell(v.why)} |")
    if not dis:
        lines.append("| (none) | | | | |")
    lines += ["", "## Every bad input", "", "| case | tile2cu | real cuTile | verdict |",
              "|---|---|---|---|"]
    for v in bad:
        lines.append(f"| {v.case} | {_cell(v.tile2cu)} | {_cell(v.cutile)} | {v.verdict} |")
    lines += ["", "## Every sample specialization", "",
              "| specialization | cuTile symbol (KernelSignature, mangled) | verdict |",
              "|---|---|---|"]
    for v in samples:
        lines.append(f"| {v.case} | `{v.detail.get('symbol', '-')}` | {v.verdict} |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tile2cu")
    ap.add_argument("--venv", default=str(ROOT / "build" / "cutile-venv"))
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--only", default="", help="only cases whose file name contains this")
    ap.add_argument("--write-table", nargs="?", const=str(ROOT / "docs" / "cutile-differences.md"),
                    default=None, help="where the markdown goes (no value: the committed docs/ copy)")
    ap.add_argument("--no-cache", action="store_true",
                    help="run real cuTile on every case (default: reuse its verdicts on unchanged "
                         "inputs, from cutile_verdicts.json and the venv; verdict_cache.py)")
    ap.add_argument("--update-verdicts", action="store_true",
                    help="rewrite tests/cutile_diff/cutile_verdicts.json from this run: every "
                         "case's verdict except time-outs; entries no case asks for are dropped")
    opts = ap.parse_args(argv)
    if opts.update_verdicts and opts.only:
        ap.error("--update-verdicts needs every case (no --only)")
    cutile_env.reexec_in_venv(Path(opts.venv), __file__, argv)

    binary = str(Path(opts.tile2cu).resolve())
    cache = VerdictCache(Path(opts.venv), reuse=not opts.no_cache)
    samples = check_samples(binary, opts.arch, opts.only, cache)
    bad = check_bad_inputs(binary, opts.arch, opts.only, cache)
    cache.save(prune=not opts.only)
    ref = REFERENCE.relative_to(ROOT)
    print(f"real cuTile's verdicts on {len(cache.asked)} cases: {cache.from_reference} recorded "
          f"in {ref}, {cache.from_venv} kept in the venv from an earlier run, "
          f"{len(cache.ran)} run now")
    if opts.update_verdicts:
        n, added, dropped = cache.update_reference()
        print(f"{ref} rewritten: {n} verdicts ({added} new, {dropped} dropped; a case that reached "
              f"the {CASE_TIMEOUT_S} s limit is recorded as Timeout)")
    elif cache.ran and not opts.no_cache and not opts.only:
        print(f"note: {ref} lacks {len(cache.ran)} of them ({', '.join(cache.ran[:6])}"
              f"{', ...' if len(cache.ran) > 6 else ''}): new or changed cases, which "
              f"`run_diff.py TILE2CU --update-verdicts` records (a case that reaches the "
              f"{CASE_TIMEOUT_S} s limit as Timeout)")
    for v in samples + bad:
        mark = "FAIL" if v.failed else "ok  "
        if v.failed or v.verdict != "agree":
            print(f"{mark} {v.case}: {v.verdict}\n       tile2cu: {v.tile2cu}\n"
                  f"       cuTile:  {v.cutile}" + (f"\n       why: {v.why}" if v.why else ""))
    table = render(samples, bad, opts.arch)
    dest = Path(opts.write_table or Path(opts.venv).parent / "cutile-differences.md")
    if not opts.only:
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(table)
        print(f"table written to {dest}")
        committed = ROOT / "docs" / "cutile-differences.md"
        if dest != committed and committed.exists() and committed.read_text() != table:
            print("note: docs/cutile-differences.md is out of date; rerun with --write-table")
    failed = sum(v.failed for v in samples + bad)
    print(f"{len(samples) + len(bad) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except SystemExit:
        raise
    except BaseException:  # noqa: BLE001 - an internal error must fail loudly, not skip
        traceback.print_exc()
        sys.exit(2)
