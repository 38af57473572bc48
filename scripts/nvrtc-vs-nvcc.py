#!/usr/bin/env python3
"""Compile seconds per sample, NVRTC in process (device code only) against the launcher's nvcc
build (host and device code, a shared library), one architecture, cold: each compile in a fresh
process, no precompiled header (issue 29; the table in docs/python-launcher.md).

    scripts/nvrtc-vs-nvcc.py TILE2CU [--arch sm_90a] [--only NAME ...]

Runs one compile at a time; other work on the machine shows up in the numbers.
"""
import argparse
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]

# A fresh interpreter per NVRTC compile, so that nothing is warm; NVRTC's own clock.
NVRTC_ONE = """
import sys, pathlib
sys.path[:0] = [sys.argv[1] + "/python", sys.argv[1] + "/tests/nvrtc"]
from tile2cu import _nvrtc
import compile_samples_nvrtc as c
cu = pathlib.Path(sys.argv[2]); text = cu.read_text()
out = _nvrtc.compile_source(text, cu.name, sys.argv[3], c.options(sys.argv[3], cu.parent, pathlib.Path("/usr/local/cuda")),
                            c.name_expressions(text))
print(out.seconds)
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tool")
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    samples = sorted(p for p in (ROOT / "samples").glob("*.py") if p.with_suffix(".sigs").exists())
    if args.only:
        samples = [s for s in samples if s.stem in args.only]
    print(f"| sample | kernels | NVRTC (s) | nvcc (s) | nvcc / NVRTC |")
    print(f"|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for s in samples:
            cu = tmp / (s.stem + ".cu")
            subprocess.run([args.tool, str(s), "-o", str(cu)], check=True, capture_output=True)
            sys.path[:0] = [str(ROOT / "python"), str(ROOT / "tests" / "nvrtc")]
            import compile_samples_nvrtc as c
            kernels = len(c.name_expressions(cu.read_text()))
            r = subprocess.run([sys.executable, "-c", NVRTC_ONE, str(ROOT), str(cu), args.arch],
                               capture_output=True, text=True)
            nvrtc = float(r.stdout.strip()) if r.returncode == 0 else float("nan")
            start = time.perf_counter()
            n = subprocess.run(["/usr/local/cuda/bin/nvcc", "-std=c++17", "-O3", "-shared", "-Xcompiler", "-fPIC",
                                "-I", str(tmp), "-I", str(ROOT / "runtime"),
                                "-gencode", f"arch=compute_{args.arch[3:]},code={args.arch}",
                                "-o", str(tmp / "lib.so"), str(cu)], capture_output=True)
            nvcc = time.perf_counter() - start if n.returncode == 0 else float("nan")
            print(f"| {s.stem} | {kernels} | {nvrtc:.1f} | {nvcc:.1f} | {nvcc / nvrtc:.1f} |", flush=True)


if __name__ == "__main__":
    main()
