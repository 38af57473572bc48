#!/usr/bin/env python3
"""The command line's files: what tile2cu refuses to read or write (issue 28).

Usage: run_file_hygiene.py TILE2CU_BINARY [-v]

Each case runs tile2cu in a fresh scratch folder holding a copy of samples/vector_add.py (as
k.py) and its sidecar (k.sigs), a FIFO and a folder, and checks: the exit status, a substring
of the one-line error, that it finished within 10 s (a FIFO must never block it), that the
inputs are unchanged, and that no file was created or changed besides the ones the case
expects. Prints one line per failing case and `N passed, M failed`; exits 1 on failure.
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SAMPLE = os.path.join(ROOT, "samples", "vector_add.py")
TIME_SCALE = float(os.environ.get("TILE2CU_TEST_TIME_SCALE") or 1)

# (name, arguments, expected exit status, stderr substring, files the run may create)
# In arguments, @W stands for the scratch folder. `stdout` may be "full" (/dev/full) or "closed".
CASES = [
    ("input /dev/zero", ["/dev/zero"], 2, "it is a device", []),
    ("input /dev/urandom", ["/dev/urandom"], 2, "it is a device", []),
    ("input FIFO", ["fifo"], 2, "it is a FIFO", []),
    ("input folder", ["adir"], 2, "it is a directory", []),
    ("input over 4 MiB", ["big.py"], 2, "at most 4 MiB", []),
    ("--sigs /dev/zero", ["k.py", "--sigs", "/dev/zero"], 2, "it is a device", []),
    ("--sigs FIFO", ["k.py", "--sigs", "fifo"], 2, "it is a FIFO", []),
    ("sidecar is a FIFO", ["f.py"], 2, "it is a FIFO", []),
    ("--sigs missing", ["k.py", "--sigs", "nope.sigs"], 2, "cannot read nope.sigs", []),
    ("-o the input", ["k.py", "-o", "k.py"], 2, "it is an input of this run", []),
    ("-o the input by another path", ["k.py", "-o", "@W/./k.py"], 2, "it is an input of this run", []),
    ("-o onto the sidecar", ["k.py", "-o", "k.sigs"], 2, "it is an input of this run", []),
    ("-o a .cuh (the .cu and .cuh would be one file)", ["k.py", "-o", "x.cuh"], 2, "twice", []),
    ("-o /dev/full", ["k.py", "-o", "/dev/full"], 2, "it is a device", []),
    ("-o /dev/null", ["k.py", "-o", "/dev/null"], 2, "it is a device", []),
    ("-o FIFO", ["k.py", "-o", "fifo"], 2, "it is a FIFO", []),
    ("-o a folder (no .cuh left behind)", ["k.py", "-o", "adir"], 2, "it is a directory", []),
    ("-o whose .cuh is a folder", ["k.py", "-o", "cdir.cu"], 2, "it is a directory", []),
    ("-o with a newline in its name", ["k.py", "-o", "o\n#error boom\n.cu"], 2, "control characters", []),
    ("-o with a quote in its name", ["k.py", "-o", 'o".cu'], 2, "control characters or '\"'", []),
    ("-o into a missing folder", ["k.py", "-o", "missing/k.cu"], 2, "cannot write", []),
    ("--emit=html -o the input", ["k.py", "--emit=html", "-o", "k.py"], 2, "it is an input of this run", []),
    ("--vendor with a FIFO inside", ["k.py", "--vendor", "vdir"], 2, "it is a FIFO", ["vdir", "vdir/tile2cu"]),
    ("--emit=cu to /dev/full", ["k.py", "--emit=cu"], 2, "cannot write standard output", [], "full"),
    ("--emit=cu with stdout closed", ["k.py", "--emit=cu"], 2, "cannot write standard output", [], "closed"),
    ("--emit=html to /dev/full", ["k.py", "--emit=html"], 2, "cannot write standard output", [], "full"),
    ("a good run still works", ["k.py", "-o", "ok.cu"], 0, "", ["ok.cu", "ok.cuh"]),
    ("a file name with a quote reaches #line escaped", ['k"q.py', "--line-directives", "-o", "q.cu"], 0, "",
     ["q.cu", "q.cuh"]),
]


def scratch():
    w = tempfile.mkdtemp(prefix="tile2cu-files-")
    shutil.copy(SAMPLE, os.path.join(w, "k.py"))
    shutil.copy(SAMPLE[:-3] + ".sigs", os.path.join(w, "k.sigs"))
    shutil.copy(SAMPLE, os.path.join(w, 'k"q.py'))
    shutil.copy(SAMPLE[:-3] + ".sigs", os.path.join(w, 'k"q.sigs'))
    shutil.copy(SAMPLE, os.path.join(w, "f.py"))
    os.mkfifo(os.path.join(w, "f.sigs"))
    os.mkfifo(os.path.join(w, "fifo"))
    os.mkdir(os.path.join(w, "adir"))
    os.mkdir(os.path.join(w, "cdir.cuh"))
    os.makedirs(os.path.join(w, "vdir"))
    os.mkfifo(os.path.join(w, "vdir", "k.cu"))
    with open(os.path.join(w, "big.py"), "w") as f:
        f.write("x = 1\n" * (4 * 1024 * 1024 // 6 + 1))
    return w


def snapshot(w):
    state = {}
    for root, dirs, files in os.walk(w):
        for name in dirs + files:
            p = os.path.join(root, name)
            rel = os.path.relpath(p, w)
            if os.path.isfile(p) and not os.path.islink(p):
                with open(p, "rb") as f:
                    state[rel] = f.read()
            else:
                state[rel] = None
    return state


def run_case(binary, case):
    name, args, status, message, created = case[:5]
    stdout_mode = case[5] if len(case) > 5 else None
    w = scratch()
    try:
        before = snapshot(w)
        args = [a.replace("@W", w) for a in args]
        stdout = subprocess.DEVNULL
        if stdout_mode == "full":
            stdout = open("/dev/full", "wb")
        try:
            p = subprocess.run([binary] + args, cwd=w, stdin=subprocess.DEVNULL, stdout=stdout,
                               stderr=subprocess.PIPE, timeout=10 * TIME_SCALE,
                               pass_fds=() if stdout_mode != "closed" else (),
                               preexec_fn=(lambda: os.close(1)) if stdout_mode == "closed" else None)
        except subprocess.TimeoutExpired:
            return f"{name}: no answer within {10 * TIME_SCALE:g} s (blocked?)"
        finally:
            if stdout_mode == "full":
                stdout.close()
        err = p.stderr.decode("utf-8", "replace")
        problems = []
        if p.returncode != status:
            problems.append(f"exit {p.returncode}, expected {status}")
        if message and message not in err:
            problems.append(f"stderr lacks {message!r}: {err.strip()!r}")
        if status != 0 and err.count("\n") != 1:
            problems.append(f"expected one error line: {err!r}")
        after = snapshot(w)
        for rel, data in before.items():
            if after.get(rel, b"gone") != data:
                problems.append(f"{rel!r} changed or removed")
        for rel in after:
            if rel not in before and rel not in created:
                problems.append(f"{rel!r} left behind")
        if name.startswith("a file name with a quote"):
            text = after.get("q.cu") or b""
            if b'#line 13 "k\\"q.py"' not in text:
                problems.append("#line does not name k\"q.py as an escaped C string")
        return f"{name}: " + "; ".join(problems) if problems else None
    finally:
        shutil.rmtree(w, ignore_errors=True)


def main():
    binary = os.path.abspath(sys.argv[1])
    verbose = "-v" in sys.argv[2:]
    failed = 0
    for case in CASES:
        problem = run_case(binary, case)
        if problem:
            failed += 1
            print(f"FAIL {problem}")
        elif verbose:
            print(f"ok   {case[0]}")
    print(f"{len(CASES) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
