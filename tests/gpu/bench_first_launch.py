#!/usr/bin/env python3
"""First-launch latency of the Python launcher (issue 29): what a new user waits for before the
first kernel runs, with an empty kernel cache and with a warm one.

1. Programs: every `samples/host/*.py` of this checkout and every `samples/*.py` of a cuTile
   checkout (UPSTREAM), each run as a user runs it (`python -m tile2cu run P`, the upstream ones
   with `--correctness-check`), twice: with an empty kernel cache (cold), then with the cache the
   first run filled (warm). For every kernel specialization built, the launcher's cache entry
   records the seconds of transpiling and of nvcc (`meta.json`): the table lists them.
2. Autotuning: cuTile's `test/kernels/matmul.py::matmul_kernel` over its benchmark search space
   (`test/bench_matmul.py`: tm, tn in {128, 256}, tk in {32, 64, 128}, num_ctas in {1, 2}: 24
   configurations) at 4096^3 fp16 through `cuda.tile.tune.exhaustive_search`, empty cache: the
   wall time and the configuration it picks.

    PYTHONPATH=python:python/tile2cu/_site TILE2CU_BIN=... \\
        python3 tests/gpu/bench_first_launch.py UPSTREAM [--json FILE] [--only NAME]

Without a GPU (or torch) it prints "no GPU: skipped" and exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

TUNE_SCRIPT = r"""
import sys, time, math, itertools, torch
sys.path.insert(0, sys.argv[1])
import cuda.tile as ct
from cuda.tile.tune import exhaustive_search
from kernels.matmul import matmul_kernel
m = n = k = 4096
A = torch.rand((m, k), dtype=torch.float16, device="cuda")
B = torch.rand((k, n), dtype=torch.float16, device="cuda")
C = torch.zeros((m, n), dtype=torch.float16, device="cuda")
space = [{"tm": tm, "tn": tn, "tk": tk, "num_ctas": c}
         for tm, tn, tk, c in itertools.product((128, 256), (128, 256), (32, 64, 128), (1, 2))]
start = time.perf_counter()
result = exhaustive_search(space, torch.cuda.current_stream(),
                           grid_fn=lambda cfg: (math.ceil(m / cfg["tm"]) * math.ceil(n / cfg["tn"]), 1, 1),
                           kernel=matmul_kernel,
                           args_fn=lambda cfg: (A, B, C, cfg["tm"], cfg["tn"], cfg["tk"]),
                           hints_fn=lambda cfg: {"num_ctas": cfg["num_ctas"]}, quiet=True)
seconds = time.perf_counter() - start
print("RESULT", {"seconds": round(seconds, 2), "best": result.best.config,
                 "best_us": round(result.best.mean_us, 1), "succeeded": len(result.successes),
                 "failed": len(result.failures)})
"""


def has_gpu() -> bool:
    try:
        import torch
        return torch.cuda.is_available()
    except ImportError:
        return False


def run_program(path: Path, args: list[str], cache: Path, timeout: float) -> tuple[float, bool, str]:
    env = dict(os.environ, TILE2CU_CACHE_DIR=str(cache))
    start = time.perf_counter()
    try:
        p = subprocess.run([sys.executable, "-m", "tile2cu", "run", str(path), *args],
                           cwd=path.parent, env=env, capture_output=True, text=True, timeout=timeout)
        ok, tail = p.returncode == 0, (p.stdout + p.stderr).strip().splitlines()[-1:] or [""]
    except subprocess.TimeoutExpired:
        ok, tail = False, [f"timed out after {timeout} s"]
    return time.perf_counter() - start, ok, tail[0][:120]


def cache_entries(cache: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(cache.rglob("meta.json"))]


def programs(upstream: Path, only: str | None) -> list[tuple[str, Path, list[str]]]:
    found = [("tile2cu", p, []) for p in sorted((REPO / "samples" / "host").glob("*.py"))]
    found += [("cuTile", p, ["--correctness-check"]) for p in sorted((upstream / "samples").glob("*.py"))]
    return [f for f in found if not only or only in f[1].name]


def bench_programs(upstream: Path, only: str | None, timeout: float) -> tuple[list, list]:
    program_rows, kernel_rows = [], []
    for origin, path, args in programs(upstream, only):
        with tempfile.TemporaryDirectory(prefix="t2c-first-") as tmp:
            cache = Path(tmp)
            cold, ok, tail = run_program(path, args, cache, timeout)
            warm, ok_warm, _ = run_program(path, args, cache, timeout) if ok else (float("nan"), False, "")
            entries = cache_entries(cache)
        program_rows.append({"origin": origin, "program": path.name, "ok": ok and ok_warm,
                             "cold_s": round(cold, 2), "warm_s": round(warm, 2),
                             "kernels": len(entries), "note": "" if ok else tail})
        for e in entries:
            kernel_rows.append({"program": path.name, "spec": e["spec"],
                                "transpile_s": e.get("transpile_seconds"), "nvcc_s": e.get("nvcc_seconds"),
                                "build_s": e["seconds"]})
        print(f"{path.name:28} cold {cold:6.2f} s  warm {warm:6.2f} s  {len(entries)} kernels"
              + ("" if ok else f"  FAILED: {tail}"), flush=True)
        for e in entries:
            print(f"    {e['spec']:40} transpile {e.get('transpile_seconds')} s  nvcc {e.get('nvcc_seconds')} s",
                  flush=True)
    return program_rows, kernel_rows


def bench_tune(upstream: Path, timeout: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="t2c-tune-") as tmp:
        env = dict(os.environ, TILE2CU_CACHE_DIR=tmp)
        try:
            p = subprocess.run([sys.executable, "-c", TUNE_SCRIPT, str(upstream / "test")], env=env,
                               capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"error": f"timed out after {timeout} s"}
    for line in p.stdout.splitlines():
        if line.startswith("RESULT "):
            import ast
            return ast.literal_eval(line[len("RESULT "):])
    return {"error": (p.stdout + p.stderr).strip()[-400:]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("upstream", type=Path, help="a cutile-python checkout")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--only", help="only the programs whose file name contains this")
    ap.add_argument("--no-tune", action="store_true")
    ap.add_argument("--timeout", type=float, default=300)
    args = ap.parse_args()
    if not has_gpu():
        print("no GPU: skipped")
        return 0
    import torch
    device = torch.cuda.get_device_name()
    program_rows, kernel_rows = bench_programs(args.upstream.resolve(), args.only, args.timeout)
    tune = {} if args.no_tune else bench_tune(args.upstream.resolve(), args.timeout)

    print(f"\ndevice: {device}, {os.cpu_count()} CPUs")
    print("\n| program | origin | ok | cold s | warm s | kernels built |\n|---|---|---|---:|---:|---:|")
    for r in program_rows:
        print(f"| {r['program']} | {r['origin']} | {'yes' if r['ok'] else 'no'} | {r['cold_s']} | "
              f"{r['warm_s']} | {r['kernels']} |")
    print("\n| program | specialization | transpile s | nvcc s |\n|---|---|---:|---:|")
    for r in kernel_rows:
        print(f"| {r['program']} | {r['spec']} | {r['transpile_s']} | {r['nvcc_s']} |")
    if tune:
        print(f"\nautotune matmul_kernel, 24 configurations, empty cache: {tune}")
    if args.json:
        args.json.write_text(json.dumps({"device": device, "cpus": os.cpu_count(),
                                         "programs": program_rows, "kernels": kernel_rows,
                                         "tune": tune}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
