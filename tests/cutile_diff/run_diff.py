#!/usr/bin/env python3
"""Differential tests against real cuTile (the reference compiler), on the CPU.

    run_diff.py TILE2CU [--venv DIR] [--arch sm_90] [--only SUBSTR] [--write-table [PATH]] [--no-cache]

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
cuTile's verdict on an unchanged case (same files, signature, pins and converting code) is kept
from the previous run in the venv (verdict_cache.py), so a rerun compiles only what changed with
cuTile; tile2cu's side always runs.
The full comparison is written as markdown (default <build>/cutile-differences.md next to the
venv; `--write-table` without a path writes docs/cutile-differences.md, the committed copy).

Runs itself under the virtual environment from tests/cutile_diff/cutile_env.py (made on first
use); when that cannot be made it prints why and exits 77 (ctest: skipped).
"""
from __future__ import annotations

import argparse
import ast
import contextlib
import importlib.util
import io
import os
import re
import signal
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
from verdict_cache import VerdictCache  # noqa: E402

CASE_TIMEOUT_S = 120
NOT_SUPPORTED_YET = "not supported yet"
TILE2CU_ERROR = re.compile(r"^(.*?):(\d+):(\d+): error\[(\w+)\]: (.*)$")
# cuTile's public error classes, most specific first (TileError is their base).
CUTILE_CLASSES = ("TileSyntaxError", "TileTypeError", "TileValueError",
                  "TileUnsupportedFeatureError", "TileStaticAssertionError",
                  "TileRecursionError", "TileStaticEvalError", "TileCompilerExecutionError",
                  "TileCompilerTimeoutError", "TileInternalError", "TileError")
# Python rejects these before cuTile sees the kernel (IndentationError and TabError are
# SyntaxErrors); tile2cu's reading of the same source is a TileSyntaxError, so the two count as
# the same class.
PYTHON_SYNTAX = (SyntaxError,)


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
    return False, m.group(4), f"{m.group(2)}:{m.group(3)}: {m.group(5)}"


class _Timeout(Exception):
    pass


@contextlib.contextmanager
def _time_limit(seconds):
    def on_alarm(*_):
        raise _Timeout()
    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


_module_counter = [0]


def load_module(path: Path):
    """Imports a kernel file under a fresh name (its folder on sys.path for helper imports)."""
    _module_counter[0] += 1
    stem = re.sub(r"\W", "_", path.stem)
    name = f"_cutile_diff_{_module_counter[0]}_{stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    try:
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    finally:
        sys.path.remove(str(path.parent))
    return mod


def cutile_class(exc) -> str:
    import cuda.tile as ct
    for name in CUTILE_CLASSES:
        if isinstance(exc, getattr(ct, name)):
            return name
    return type(exc).__name__


def first_line(text: str, limit: int = 160) -> str:
    line = next((ln.strip() for ln in str(text).splitlines() if ln.strip()), "")
    return line if len(line) <= limit else line[:limit - 3] + "..."


def kernel_names(path: Path) -> list:
    """Names of the @ct.kernel functions of a file, in source order (by syntax, not import)."""
    try:
        tree = ast.parse(path.read_bytes())
    except (SyntaxError, ValueError):
        return []
    out = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            for d in node.decorator_list:
                target = d.func if isinstance(d, ast.Call) else d
                if isinstance(target, ast.Attribute) and target.attr == "kernel":
                    out.append(node.name)
    return out


def cutile_compile(path: Path, sig_text: str, kernel_name: str | None, arch: str,
                   module=None):
    """Real cuTile's verdict on one kernel + signature. -> (accepted, class, message, info)"""
    from cuda.tile.compilation import export_kernel
    from tile2cu_sig import parse_signature
    from tile2cu_sig.cutile import kernel_param_names, to_kernel_signature
    info = {}
    try:
        with _time_limit(CASE_TIMEOUT_S):
            try:
                mod = module or load_module(path)
            except PYTHON_SYNTAX as e:
                return False, "TileSyntaxError", f"(Python {type(e).__name__} at import) " \
                    f"{first_line(e)}", {"python_syntax": True}
            except Exception as e:  # noqa: BLE001 - module code failed before cuTile ran
                return False, f"Python {cutile_class(e)} at import", first_line(e), info
            if kernel_name is None:
                names = kernel_names(path)
                if len(names) != 1:
                    return False, "NoKernel", f"{len(names)} @ct.kernel functions and no " \
                        "'# kernel:' header", info
                kernel_name = names[0]
            kernel = getattr(mod, kernel_name, None)
            if kernel is None:
                return False, "NoKernel", f"no kernel {kernel_name!r} after import", info
            try:
                sig = parse_signature(sig_text)
                ks = to_kernel_signature(sig, kernel_param_names(kernel),
                                         symbol_base=kernel_name)
            except (ValueError, TypeError) as e:
                return False, "SignatureError", str(e), {"signature_only": True}
            info["symbol"] = ks.symbol
            buf = io.BytesIO()
            export_kernel(kernel, [ks], buf, gpu_code=arch, output_format="cubin")
            info["cubin_bytes"] = len(buf.getvalue())
            return True, "", "", info
    except _Timeout:
        return False, "Timeout", f"cuTile ran over {CASE_TIMEOUT_S} s", info
    except Exception as e:  # noqa: BLE001 - the class of whatever cuTile raised is the result
        msg = first_line(str(e))
        loc = getattr(e, "loc", None)
        if loc is not None and getattr(loc, "line", 0):
            msg = f"{loc.line}:{getattr(loc, 'col', 0)}: {msg}"
        return False, cutile_class(e), msg, info


def cutile_verdict(cache, path: Path, sig_text: str, kernel_name, arch: str, module=None):
    """cutile_compile, or the verdict kept from an earlier run on the very same input."""
    if cache is None:
        return cutile_compile(path, sig_text, kernel_name, arch, module)
    key = cache.key(path, sig_text, kernel_name, arch)
    verdict = cache.get(key)
    if verdict is None:
        started = time.monotonic()
        verdict = cutile_compile(path, sig_text, kernel_name, arch, module)
        # A verdict reached at the time limit depends on the machine's load (cuTile may report
        # the alarm as its own TileInternalError): not kept.
        if time.monotonic() - started < CASE_TIMEOUT_S - 1:
            cache.put(key, verdict)
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


def check_samples(binary, arch, only, cache=None) -> list:
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
            ok_c, cls_c, msg_c, info = cutile_verdict(cache, py, text, sig.kernel, arch, module)
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


def check_bad_inputs(binary, arch, only, cache=None) -> list:
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
        ok_c, cls_c, msg_c, info = cutile_verdict(cache, path, case.sig or "", case.kernel, arch)
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
                         "inputs, kept in the venv by verdict_cache.py)")
    opts = ap.parse_args(argv)
    cutile_env.reexec_in_venv(Path(opts.venv), __file__, argv)

    binary = str(Path(opts.tile2cu).resolve())
    cache = None if opts.no_cache else VerdictCache(Path(opts.venv))
    samples = check_samples(binary, opts.arch, opts.only, cache)
    bad = check_bad_inputs(binary, opts.arch, opts.only, cache)
    if cache is not None:
        cache.save(prune=not opts.only)
        print(f"real cuTile's verdicts: {cache.hits} of {len(samples) + len(bad)} kept from an "
              f"earlier run on the same input ({cache.path.name}; --no-cache runs them all)")
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
