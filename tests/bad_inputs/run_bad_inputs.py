#!/usr/bin/env python3
"""Bad-input catalogue runner for tile2cu.

Usage: run_bad_inputs.py TILE2CU_BINARY [--only SUBSTR] [--no-fuzz] [--keep DIR] [-v]

Every tests/bad_inputs/NNN_name.py is a small malformed or unsupported kernel whose
header comments say how tile2cu must reject it:

    # sig: a=float32[?], TILE=16          signature passed as --sig (required)
    # kernel: k                           passed as --kernel (optional)
    # expect-origin: --sig #1             the diagnostic points into this origin instead of
                                          the .py file (optional; for --sig errors)
    # expect: 7:5: TileTypeError: Shapes are not broadcastable
                                          line:col, error class, message substring

A case passes when tile2cu, run with `-o <tmp>/out.cu`:
  * exits with a non-zero status that is not an internal error (3) or a signal,
  * prints as the first stderr line `FILE:LINE:COL: error[CLASS]: ...` containing the
    substring (FILE = the path given on the command line, or the expect-origin),
  * shows the offending source line and a caret line whose first '^' is under COL,
  * writes neither out.cu nor out.cuh.

Robustness ("fuzz-ish") pass: every case's text is also fed truncated at 10 points and
with random byte flips (fixed seed); tile2cu must exit with 0, 1 or 2 (never 3 = internal
error, never a signal) within 5 s (times TILE2CU_TEST_TIME_SCALE, when set). A case fails if its expectation or any of its fuzz
variants fails.

Prints one line per failing case and finally `N passed, M failed` (counting cases); exits 1
on any failure.
"""
import argparse
import concurrent.futures
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CASE_RE = re.compile(r"^\d{3}_[A-Za-z0-9_]+\.py$")
EXPECT_RE = re.compile(r"^(\d+):(\d+):\s*(\w+):\s*(.*)$")
# Sanitizer builds run several times slower: TILE2CU_TEST_TIME_SCALE stretches the timeouts.
TIME_SCALE = float(os.environ.get("TILE2CU_TEST_TIME_SCALE") or 1)
FUZZ_TIMEOUT_S = 5.0 * TIME_SCALE
CASE_TIMEOUT_S = 30.0 * TIME_SCALE
FUZZ_TRUNCATIONS = 10
FUZZ_FLIPS = 10
FUZZ_SEED = 20240611


class Case:
    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)[:-3]
        with open(path, "rb") as f:
            self.data = f.read()
        self.text = self.data.decode("utf-8", "surrogateescape")
        self.headers = {}
        for line in self.text.splitlines():
            if not line.startswith("#"):
                break
            m = re.match(r"^#\s*([a-z-]+):\s?(.*)$", line)
            if m:
                self.headers[m.group(1)] = m.group(2).strip()
        self.sig = self.headers.get("sig")
        self.kernel = self.headers.get("kernel")
        self.origin = self.headers.get("expect-origin")
        self.error = None
        if self.sig is None:
            self.error = "missing '# sig:' header"
        exp = self.headers.get("expect")
        m = EXPECT_RE.match(exp or "")
        if not m:
            self.error = "missing or malformed '# expect: LINE:COL: CLASS: substring' header"
        else:
            self.line, self.col = int(m.group(1)), int(m.group(2))
            self.cls, self.substring = m.group(3), m.group(4)

    def args(self, binary, input_path):
        argv = [binary, input_path, "--sig", self.sig]
        if self.kernel:
            argv += ["--kernel", self.kernel]
        return argv


def describe_rc(rc):
    if rc is None:
        return "timeout"
    if rc < 0:
        return f"killed by signal {-rc}"
    return f"exit {rc}"


def run(argv, timeout, cwd=None):
    try:
        p = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout, cwd=cwd)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or b"", e.stderr or b""


def check_case(binary, case):
    """Returns None when the case passes, else a one-line reason."""
    if case.error:
        return case.error
    with tempfile.TemporaryDirectory(prefix="tile2cu_bad_") as tmp:
        # Run on a copy so the file path in diagnostics is predictable and short.
        src = os.path.join(tmp, case.name + ".py")
        with open(src, "wb") as f:
            f.write(case.data)
        out_cu = os.path.join(tmp, "out", "out.cu")
        os.makedirs(os.path.dirname(out_cu))
        rc, _, err = run(case.args(binary, src) + ["-o", out_cu], CASE_TIMEOUT_S)
        written = [n for n in ("out.cu", "out.cuh") if os.path.exists(os.path.join(tmp, "out", n))]
    err_text = err.decode("utf-8", "replace").replace(tmp + os.sep, "")
    lines = err_text.splitlines()
    first = lines[0] if lines else ""
    actual = f"[{describe_rc(rc)}] {first}" if first else f"[{describe_rc(rc)}] (no stderr)"
    if rc is None or rc < 0 or rc == 0 or rc == 3:
        return f"expected an error, got {actual}"
    if written:
        return f"wrote {', '.join(written)} despite the error; {actual}"
    origin = case.origin if case.origin else case.name + ".py"
    prefix = f"{origin}:{case.line}:{case.col}: error[{case.cls}]:"
    if not first.startswith(prefix):
        return f"expected '{prefix} ...{case.substring}...', got {actual}"
    if case.substring not in first[len(prefix):]:
        return f"message lacks '{case.substring}': {actual}"
    # Source line + caret line.
    if case.origin:
        src_lines = [case.sig] if case.origin.startswith("--sig") else []
    else:
        src_lines = case.text.splitlines()
    if 1 <= case.line <= len(src_lines):
        want = src_lines[case.line - 1]
        if len(lines) < 3 or lines[1].strip() != want.strip():
            return f"stderr does not show source line {case.line} ({want.strip()!r}); {actual}"
        caret = lines[2]
        if "^" not in caret or caret.strip(" \t^") != "":
            return f"no caret line under the source line; {actual}"
        # The echoed line is indented by the renderer; the caret is aligned with that echo.
        indent = len(lines[1]) - len(lines[1].lstrip(" ")) - (len(want) - len(want.lstrip(" ")))
        want_caret = indent + case.col - 1
        if "\t" not in want and caret.index("^") != want_caret:
            return f"caret at column {caret.index('^') - indent + 1}, expected {case.col}; {actual}"
    elif len(lines) < 3 or "^" not in lines[2]:
        return f"stderr lacks a source line and caret; {actual}"
    return None


def fuzz_variants(case):
    data = case.data
    rng = random.Random(FUZZ_SEED + sum(data) + len(data))
    variants = []
    n = len(data)
    for i in range(1, FUZZ_TRUNCATIONS + 1):
        cut = n * i // (FUZZ_TRUNCATIONS + 1)
        variants.append((f"truncated at byte {cut}", data[:cut]))
    for _ in range(FUZZ_FLIPS):
        buf = bytearray(data)
        flips = []
        for _ in range(rng.randint(1, 4)):
            pos = rng.randrange(n)
            val = rng.randrange(256) if rng.random() < 0.5 else buf[pos] ^ (1 << rng.randrange(8))
            buf[pos] = val
            flips.append(f"{pos}=0x{val:02x}")
        variants.append(("bytes " + ",".join(flips), bytes(buf)))
    return variants


def fuzz_case(binary, case, keep_dir):
    if case.error:
        return case.error
    problems = []
    with tempfile.TemporaryDirectory(prefix="tile2cu_fuzz_") as tmp:
        for idx, (what, blob) in enumerate(fuzz_variants(case)):
            src = os.path.join(tmp, f"{case.name}_f{idx}.py")
            with open(src, "wb") as f:
                f.write(blob)
            rc, _, err = run(case.args(binary, src), FUZZ_TIMEOUT_S)
            if rc is None or rc < 0 or rc not in (0, 1, 2):
                first = err.decode("utf-8", "replace").splitlines()[:1]
                msg = f"{what}: {describe_rc(rc)}" + (f" ({first[0]})" if first else "")
                if keep_dir:
                    os.makedirs(keep_dir, exist_ok=True)
                    kept = os.path.join(keep_dir, os.path.basename(src))
                    with open(kept, "wb") as f:
                        f.write(blob)
                    msg += f" [kept as {kept}]"
                problems.append(msg)
    if problems:
        return f"{len(problems)} variant(s) crashed or hung: " + "; ".join(problems)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("--only", help="run only cases whose name contains this")
    ap.add_argument("--no-fuzz", action="store_true", help="skip the robustness pass")
    ap.add_argument("--keep", metavar="DIR", help="save crashing fuzz inputs here")
    ap.add_argument("-v", "--verbose", action="store_true", help="also print passing cases")
    ap.add_argument("-j", "--jobs", type=int, default=min(8, os.cpu_count() or 1))
    opts = ap.parse_args()
    binary = os.path.abspath(opts.binary)
    if not os.access(binary, os.X_OK):
        print(f"error: {binary} is not an executable", file=sys.stderr)
        return 2

    cases = [Case(os.path.join(HERE, n)) for n in sorted(os.listdir(HERE)) if CASE_RE.match(n)]
    if opts.only:
        cases = [c for c in cases if opts.only in c.name]
    if not cases:
        print("error: no cases found", file=sys.stderr)
        return 2

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        futures = []
        for c in cases:
            expect = pool.submit(check_case, binary, c)
            fuzz = None if opts.no_fuzz else pool.submit(fuzz_case, binary, c, opts.keep)
            futures.append((c, expect, fuzz))
        passed = failed = 0
        for c, expect, fuzz in futures:
            problems = []
            for label, fut in (("", expect), ("fuzz: ", fuzz)):
                if fut is None:
                    continue
                try:
                    problem = fut.result()
                except Exception as e:  # a runner bug must not hide other results
                    problem = f"runner exception: {e!r}"
                if problem is not None:
                    problems.append(label + problem)
            if problems:
                failed += 1
                print(f"FAIL {c.name}: " + " | ".join(problems))
            else:
                passed += 1
                if opts.verbose:
                    print(f"PASS {c.name}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
