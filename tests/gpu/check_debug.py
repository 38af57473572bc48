#!/usr/bin/env python3
"""Device check of ct.print / print / ct.printf / ct.assert_ (tests/gpu/debug/debug_kernels.py).

    python3 tests/gpu/check_debug.py --cu GEN/debug_kernels.cu --runtime runtime

Builds the generated file into a library, then runs each case in a child process (device printf
goes to the process's stdout, and a failed assertion leaves the CUDA context unusable):
  * print: 5 blocks print one line each per print call (block order free), the values match
    (f-strings with format specs included, printed inside a with over a contextmanager helper,
    whose enter / exit lines come before / after the body's line of the same block)
    the input (tile elements to the printed %f precision), ragged last tile padded with zeros;
    a 64-element tile (over the 32-argument printf limit) still prints all 64 values;
  * assert: only blocks whose tile holds a negative value report, once each, and the launch
    fails; with non-negative input the launch succeeds and prints nothing.
Exits non-zero on any failure; prints "no GPU: skipped" without torch/CUDA.
"""
import argparse
import ctypes
import re
import subprocess
import sys

N = 37  # 5 blocks of 8; the last one ragged


def child(lib_path, case):
    import torch
    lib = ctypes.CDLL(lib_path)
    torch.manual_seed(1234)
    stream = torch.cuda.current_stream().cuda_stream
    if case.startswith("print"):
        tile = 8 if case == "print" else 64
        n = N if tile == 8 else 100
        x = (torch.rand(n, device="cuda") * 10).float()
        fn = getattr(lib, "tile2cu_print_demo_" + ("f32" if tile == 8 else "wide"))
        fn.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
                       ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int32]
        blocks = -(-n // tile)
        rc = fn(stream, blocks, 1, 1, x.data_ptr(), n, 1, 4242)
        torch.cuda.synchronize()
        sys.stdout.flush()
        print("INPUT " + " ".join(f"{v:.6f}" for v in x.tolist()), flush=True)
        print(f"RC {rc}", flush=True)
        return
    x = torch.rand(1000, device="cuda").float()
    if case == "assert":
        x[130] = -1.0  # block 1
        x[900] = -2.0  # block 7
    fn = lib.tile2cu_assert_demo_f32
    fn.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
                   ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64]
    rc = fn(stream, 8, 1, 1, x.data_ptr(), 1000, 1)
    try:
        torch.cuda.synchronize()
        status = "ok"
    except RuntimeError as e:
        status = "failed: " + str(e).splitlines()[0]
    print(f"RC {rc} STATUS {status}", flush=True)


def run_child(lib, case):
    p = subprocess.run([sys.executable, __file__, "--child", case, "--lib", lib],
                       capture_output=True, text=True, timeout=120)
    return p.stdout.splitlines(), p.stderr


def check_print(lib, wide):
    lines, err = run_child(lib, "print_wide" if wide else "print")
    tile, n = (64, 100) if wide else (8, N)
    blocks = -(-n // tile)
    problems = []
    inp = [float(v) for v in next(l for l in lines if l.startswith("INPUT "))[6:].split()]
    if not any(l == "RC 0" for l in lines):
        problems.append(f"launch failed: {lines[-1:]} {err[-300:]}")
    first = sorted(l for l in lines if l.startswith("block "))
    want = sorted(f"block {b} of {blocks} n = 4242" for b in range(blocks))
    if first != want:
        problems.append(f"print lines {first} != {want}")
    tiles = [l for l in lines if l.startswith("tile ")]
    if len(tiles) != blocks:
        problems.append(f"{len(tiles)} tile lines for {blocks} blocks")
    for l in tiles:
        m = re.fullmatch(r"tile (\d+) \[(.*)\]", l)
        if not m:
            problems.append(f"garbled line: {l[:120]}")
            continue
        b = int(m.group(1))
        vals = [float(v) for v in m.group(2).split(", ")]
        ref = [inp[i] if i < n else 0.0 for i in range(b * tile, (b + 1) * tile)]
        if len(vals) != tile or any(abs(a - r) > 1.5e-6 * max(1, abs(r)) for a, r in zip(vals, ref)):
            problems.append(f"block {b}: printed {vals[:4]}... expected {ref[:4]}...")
    sums = [l for l in lines if l.startswith("sum ")]
    for l in sums:
        _, b, s = l.split()
        ref = sum(inp[i] for i in range(int(b) * tile, min(n, (int(b) + 1) * tile)))
        if abs(float(s) - ref) > 2e-3:
            problems.append(f"{l} != {ref:.3f}")
    if len(sums) != blocks:
        problems.append(f"{len(sums)} sum lines for {blocks} blocks")
    # f-strings inside a with over a contextmanager helper: enter, body, exit, per block.
    for b in range(blocks):
        mine = [l for l in lines if l in (f"enter {b}", f"exit {b}") or l.startswith(f"fmt {b:>3}|")]
        if [l.split()[0] for l in mine] != ["enter", "fmt", "exit"]:
            problems.append(f"block {b}: with/f-string lines {mine}")
            continue
        ref = sum(inp[i] for i in range(b * tile, min(n, (b + 1) * tile)))
        fields = mine[1].split("|")  # "fmt   b", "00<2b>", sum, TILE, n in hex
        if (len(fields) != 5 or fields[:2] != [f"fmt {b:>3}", f"{2 * b:03d}"]
                or abs(float(fields[2]) - ref) > 1e-2 or fields[3:] != [str(tile), f"{4242:x}"]):
            problems.append(f"block {b}: {mine[1]!r} != 'fmt {b:>3}|{2 * b:03d}|{ref:.2f}|{tile}|{4242:x}'")
    return problems, lines


def check_assert(lib, failing):
    lines, err = run_child(lib, "assert" if failing else "assert_ok")
    reports = sorted(l for l in lines if "assertion failed" in l)
    status = next((l for l in lines if l.startswith("RC ")), "no status: " + err[-300:])
    problems = []
    if failing:
        want = sorted(f"debug_kernels.py:28: assertion failed: inputs must be non-negative (block {b}, 0, 0)"
                      for b in (1, 7))
        # The trap of the first failing block may end the grid before a later block reports.
        if not reports or any(r not in want for r in reports) or len(set(reports)) != len(reports):
            problems.append(f"reports {reports}, expected a subset of {want}, each once")
        if "STATUS failed" not in status:
            problems.append(f"the launch did not fail: {status}")
    else:
        if reports or "STATUS ok" not in status:
            problems.append(f"unexpected: {reports} {status}")
    return problems, lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cu")
    ap.add_argument("--runtime", default="runtime")
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("--no-build", action="store_true", help="use the .so next to --cu as it is")
    ap.add_argument("--child")
    ap.add_argument("--lib")
    opts = ap.parse_args()
    if opts.child:
        child(opts.lib, opts.child)
        return 0
    try:
        import torch
        if not torch.cuda.is_available():
            raise ImportError
    except ImportError:
        print("no GPU: skipped")
        return 0
    lib = opts.cu.replace(".cu", ".so")
    arch = f"-gencode=arch=compute_{opts.arch[3:]},code={opts.arch}"
    if not opts.no_build:
        subprocess.run(["nvcc", "-O3", "-std=c++17", "-shared", "-Xcompiler", "-fPIC", f"-I{opts.runtime}",
                        arch, opts.cu, "-o", lib], check=True)
    failed = 0
    for name, (problems, lines) in [("print (8-element tiles, one printf)", check_print(lib, False)),
                                    ("print (64-element tiles, printf per element)", check_print(lib, True)),
                                    ("assert (blocks 1 and 7 fail)", check_assert(lib, True)),
                                    ("assert (no failure)", check_assert(lib, False))]:
        print(f"{'PASS' if not problems else 'FAIL'} {name}")
        for p in problems:
            print("   ", p)
        if name.startswith("assert (blocks"):
            print("    output:", [l for l in lines if "assertion" in l or l.startswith("RC")])
        failed += bool(problems)
    print(f"{4 - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
