#!/usr/bin/env python3
"""Determinism: the same input gives byte-identical output, whatever the run, the working
directory or the path the input file is reached through.

Usage: run_determinism.py TILE2CU_BINARY [--only SUBSTR] [-v]

For every sample (samples/*.py with its sidecar .sigs), the samples folder is copied into a
scratch folder W and tile2cu runs with `-o DIR/NAME.cu` in these ways:

    twice   cwd W            src/NAME.py                   (same command, run again)
    subdir  cwd W/src        NAME.py                       (output ../out/NAME.cu)
    abs     cwd W/elsewhere  /abs/W/src/NAME.py            (absolute output path)
    symlink cwd W            link/NAME.py                  (link -> src, a folder symlink)
    dotdot  cwd W            ./src/../src/NAME.py          (output ./o/../o/NAME.cu)
    copy    cwd /            /abs/other/copy/NAME.py       (a second copy elsewhere)
    env     cwd W            src/NAME.py                   (LC_ALL=C, TZ, HOME changed; output
                                                            folder with a space in its name)

Without --line-directives, every run's .cu and .cuh must be byte-identical to the first
run's, and `--emit=ir` / `--emit=ast` on standard output identical across runs.
With --line-directives, the .cu of every run must be identical once the file names in the
`#line N "FILE"` directives are masked, and every FILE must name the right file: the Python
input for the directives that point into Python, the .cu itself for the ones that point
back into it. A FILE resolves when, taken relative to the working directory of the run (as
compilers and debuggers do) or to the .cu's own folder, it is the same file (os.path.samefile).
Diagnostics: a bad input's stderr is identical across runs once its path is masked.

Prints one line per failing check and `N passed, M failed` (samples); exits 1 on failure.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SAMPLES = os.path.join(ROOT, "samples")
BAD = os.path.join(ROOT, "tests", "bad_inputs")
TIME_SCALE = float(os.environ.get("TILE2CU_TEST_TIME_SCALE") or 1)  # slower sanitizer builds
LINE_RE = re.compile(rb'^#line (\d+) "([^"]*)"$', re.M)


def run(argv, cwd, env=None):
    p = subprocess.run(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60 * TIME_SCALE)
    return p.returncode, p.stdout, p.stderr


def layouts(w, other, name):
    """(label, cwd, input path, output .cu path, extra env) for each way of running."""
    env = dict(os.environ, LC_ALL="C", LANG="C", TZ="Pacific/Kiritimati", HOME=os.path.join(w, "elsewhere"))
    return [
        ("first", w, f"src/{name}.py", "out_first/k.cu", None),
        ("twice", w, f"src/{name}.py", "out_twice/k.cu", None),
        ("subdir", os.path.join(w, "src"), f"{name}.py", "../out_subdir/k.cu", None),
        ("abs", os.path.join(w, "elsewhere"), os.path.join(w, "src", f"{name}.py"),
         os.path.join(w, "out_abs", "k.cu"), None),
        ("symlink", w, f"link/{name}.py", "out_symlink/k.cu", None),
        ("dotdot", w, f"./src/../src/{name}.py", "./out_dotdot/../out_dotdot/k.cu", None),
        ("copy", "/", os.path.join(other, "copy", f"{name}.py"), os.path.join(other, "out_copy", "k.cu"), None),
        ("env", w, f"src/{name}.py", "out env/k.cu", env),
    ]


def check_sample(binary, name, tmp):
    problems = []
    w = os.path.join(tmp, name, "w")
    other = os.path.join(tmp, name, "other")
    shutil.copytree(SAMPLES, os.path.join(w, "src"))
    shutil.copytree(SAMPLES, os.path.join(other, "copy"))
    os.symlink("src", os.path.join(w, "link"))
    os.makedirs(os.path.join(w, "elsewhere"))
    ways = layouts(w, other, name)

    for line_directives in (False, True):
        reference = None
        for label, cwd, src, out, env in ways:
            suffix = "_lines" if line_directives else ""
            out = out.replace("k.cu", f"{name}{suffix}.cu")
            out_abs = os.path.normpath(os.path.join(cwd, out))
            os.makedirs(os.path.dirname(out_abs), exist_ok=True)
            argv = [binary, src, "-o", out] + (["--line-directives"] if line_directives else [])
            rc, _, err = run(argv, cwd, env)
            if rc != 0:
                problems.append(f"{label}: exit {rc}: {err.decode(errors='replace').strip()[:200]}")
                continue
            with open(out_abs, "rb") as f:
                cu = f.read()
            with open(out_abs[:-3] + ".cuh", "rb") as f:
                cuh = f.read()
            if line_directives:
                py_abs = os.path.join(cwd, src)
                # A helper module the kernel imports (beside it: samples/tile_order.py) is quoted
                # from its own file.
                py_dir = os.path.dirname(py_abs)
                modules = [os.path.join(py_dir, n) for n in os.listdir(py_dir) if n.endswith(".py")]
                for m in LINE_RE.finditer(cu):
                    path = m.group(2).decode()
                    targets = (py_abs, out_abs, *modules)
                    bases = [cwd, os.path.dirname(out_abs)]
                    cands = [path] if os.path.isabs(path) else [os.path.join(b, path) for b in bases]
                    if not any(os.path.exists(c) and any(os.path.samefile(c, t) for t in targets) for c in cands):
                        problems.append(f"{label} --line-directives: '#line {m.group(1).decode()} \"{path}\"' "
                                        f"resolves neither to the input, a module beside it nor the .cu (cwd {cwd})")
                        break
                cu = LINE_RE.sub(lambda m: b'#line ' + m.group(1) + b' "FILE"', cu)
            if reference is None:
                reference = (label, cu, cuh)
                continue
            for what, mine, ref in ((".cu", cu, reference[1]), (".cuh", cuh, reference[2])):
                if mine != ref:
                    problems.append(f"{label}{' --line-directives' if line_directives else ''}: {what} differs "
                                    f"from run '{reference[0]}' ({first_difference(ref, mine)})")

    # The other stages on standard output.
    for emit in ("ir", "ast"):
        outputs = []
        for label, cwd, src, _, env in ways:
            rc, out, err = run([binary, src, f"--emit={emit}"], cwd, env)
            outputs.append((label, rc, out))
        ref = outputs[0]
        for label, rc, out in outputs[1:]:
            if (rc, out) != (ref[1], ref[2]):
                problems.append(f"{label}: --emit={emit} differs from run '{ref[0]}' "
                                f"({first_difference(ref[2], out)})")
    return problems


def check_diagnostics(binary, tmp):
    """Bad inputs: the diagnostic text is the same across runs and paths, path masked."""
    problems = []
    w = os.path.join(tmp, "_bad", "w")
    shutil.copytree(BAD, os.path.join(w, "src"))
    os.symlink("src", os.path.join(w, "link"))
    os.makedirs(os.path.join(w, "elsewhere"))
    for case in sorted(n for n in os.listdir(BAD) if re.match(r"^\d{3}_\w+\.py$", n))[::7]:
        with open(os.path.join(BAD, case)) as f:
            sig = next((l.split(":", 1)[1].strip() for l in f if l.startswith("# sig:")), None)
        if sig is None:
            continue
        seen = None
        for cwd, src in ((w, f"src/{case}"), (w, f"src/{case}"), (os.path.join(w, "elsewhere"), os.path.join(w, "src", case)),
                         (w, f"link/{case}"), (w, f"./src/../src/{case}")):
            rc, _, err = run([binary, src, "--sig", sig], cwd)
            masked = (rc, err.replace(src.encode(), b"FILE"))
            if seen is None:
                seen = masked
            elif masked != seen:
                problems.append(f"{case}: diagnostics differ with the input given as {src} "
                                f"({first_difference(seen[1], masked[1])})")
                break
    return problems


def first_difference(a, b):
    al, bl = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(al, bl)):
        if x != y:
            return f"line {i + 1}: {x[:80]!r} vs {y[:80]!r}"
    return f"{len(al)} vs {len(bl)} lines"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("--only", help="only samples whose name contains this")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("-j", "--jobs", type=int, default=min(4, os.cpu_count() or 1))
    opts = ap.parse_args()
    binary = os.path.abspath(opts.binary)
    names = sorted(n[:-3] for n in os.listdir(SAMPLES)
                   if n.endswith(".py") and os.path.exists(os.path.join(SAMPLES, n[:-3] + ".sigs")))
    if opts.only:
        names = [n for n in names if opts.only in n]
    tmp = tempfile.mkdtemp(prefix="tile2cu_determinism_")
    passed = failed = 0
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
            futures = [(n, pool.submit(check_sample, binary, n, tmp)) for n in names]
            if not opts.only:
                futures.append(("diagnostics", pool.submit(check_diagnostics, binary, tmp)))
            for n, fut in futures:
                try:
                    problems = fut.result()
                except Exception as e:  # a runner bug must not hide other results
                    problems = [f"runner exception: {e!r}"]
                if problems:
                    failed += 1
                    for p in problems:
                        print(f"FAIL {n}: {p}")
                else:
                    passed += 1
                    if opts.verbose:
                        print(f"ok   {n}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
