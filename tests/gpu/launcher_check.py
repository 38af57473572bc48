#!/usr/bin/env python3
"""Device check of the Python launcher (python/tile2cu), run on a GPU machine:

  1. latency: a cold launch (transpile + nvcc + load, empty cache), a launch that finds the
     disk cache (new process), and warm launches, against the kernel's own run time (CUDA
     events) and torch's launch cost for the same work;
  2. every host program in samples/host/ run unchanged through `python -m tile2cu run`
     (in parallel, on a fresh cache), each checking its results against torch;
  3. prints a table and writes $OUT/launcher_results.json.

    PYTHONPATH=python TILE2CU_BIN=build/tile2cu python3 tests/gpu/launcher_check.py
"""

from __future__ import annotations

import concurrent.futures
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
results: dict = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}

FIRST_LAUNCH = """
import sys, time
sys.path.insert(0, {samples!r})
import torch
import tile2cu.cutile as ct
from tile2cu import _alias
_alias.install()
from vector_add import vector_add
n = 1 << 20
a, b = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
c = torch.empty_like(a)
torch.cuda.synchronize()
t = time.perf_counter()
ct.launch(torch.cuda.current_stream(), (ct.cdiv(n, 1024),), vector_add, (a, b, c, 1024))
first = time.perf_counter() - t
torch.cuda.synchronize()
assert torch.equal(c, a + b)
print(first)
"""


def first_launch_seconds(cache: str) -> float:
    env = dict(os.environ, TILE2CU_CACHE_DIR=cache)
    code = FIRST_LAUNCH.format(samples=str(ROOT / "samples"))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(r.stderr)
    return float(r.stdout.strip().splitlines()[-1])


def warm_latency():
    import torch
    sys.path.insert(0, str(ROOT / "samples"))
    from tile2cu import _alias
    _alias.install()
    import tile2cu.cutile as ct
    from vector_add import vector_add

    stream = torch.cuda.current_stream()
    out = {}
    for n in (1 << 12, 1 << 24):
        a, b = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
        c = torch.empty_like(a)
        grid = (ct.cdiv(n, 1024),)
        args = (a, b, c, 1024)
        ct.launch(stream, grid, vector_add, args)        # compiled (or loaded) here
        torch.cuda.synchronize()
        assert torch.equal(c, a + b)

        # Host cost of one ct.launch: back-to-back launches of a kernel far shorter than that
        # cost (n = 4096), so the GPU never holds the CPU back; per call, median of 5 runs.
        def host_us(fn, reps=20000):
            runs = []
            for _ in range(5):
                torch.cuda.synchronize()
                t = time.perf_counter()
                for _ in range(reps):
                    fn()
                runs.append((time.perf_counter() - t) / reps * 1e6)
                torch.cuda.synchronize()
            return statistics.median(runs)

        # Kernel run time without the host in the way: 100 launches captured in a CUDA graph,
        # CUDA events around replays, median of 5, per launch.
        def device_us(fn, reps=100):
            side = torch.cuda.Stream()
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.stream(side), torch.cuda.graph(graph, stream=side):
                for _ in range(reps):
                    fn(side)
            graph.replay()
            times = []
            for _ in range(5):
                s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                s.record()
                graph.replay()
                e.record()
                e.synchronize()
                times.append(s.elapsed_time(e) * 1e3 / reps)
            return statistics.median(times)

        spec = next(iter(vector_add._specs.values()))
        from tile2cu import _args
        handle = _args.stream_handle(stream)
        flat = [a.data_ptr(), n, 1, b.data_ptr(), n, 1, c.data_ptr(), n, 1]
        row = {"n": n}
        if n == 1 << 12:
            row["ct_launch_host_us"] = host_us(lambda: ct.launch(stream, grid, vector_add, args))
            row["ctypes_entry_host_us"] = host_us(lambda: spec.entry(handle, grid[0], 1, 1, *flat))
            row["torch_add_host_us"] = host_us(lambda: torch.add(a, b, out=c))
        row["kernel_us"] = device_us(lambda s: ct.launch(s, grid, vector_add, args))
        row["torch_add_kernel_us"] = device_us(lambda s: torch.add(a, b, out=c))
        out[f"n={n}"] = row
    return out


def run_host_programs(cache: str):
    env = dict(os.environ, TILE2CU_CACHE_DIR=cache)
    programs = sorted((ROOT / "samples" / "host").glob("*.py"))

    def one(path):
        t = time.perf_counter()
        r = subprocess.run([sys.executable, "-m", "tile2cu", "run", str(path)], env=env,
                           capture_output=True, text=True, timeout=500)
        return path.stem, r.returncode, time.perf_counter() - t, r.stdout + r.stderr

    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        for name, rc, secs, text in pool.map(one, programs):
            ok = rc == 0
            rows.append({"program": name, "ok": ok, "seconds": round(secs, 2),
                         "output": text.strip().splitlines()[-12:]})
            print(f"--- samples/host/{name}.py: {'ok' if ok else 'FAILED'} ({secs:.1f} s)")
            print(text.strip())
    return rows


def main():
    import torch
    results["device"] = torch.cuda.get_device_name(0)
    results["commit"] = os.environ.get("COMMIT", "")
    with tempfile.TemporaryDirectory() as cache:
        results["cold_first_launch_s"] = first_launch_seconds(cache)     # empty cache: builds
        results["disk_cache_first_launch_s"] = first_launch_seconds(cache)  # new process, cached
        os.environ["TILE2CU_CACHE_DIR"] = cache
        results["warm"] = warm_latency()
    print(json.dumps(results, indent=1))
    write()
    with tempfile.TemporaryDirectory() as cache:
        results["host_programs"] = run_host_programs(cache)
    write()
    failed = [r["program"] for r in results["host_programs"] if not r["ok"]]
    print("\n| check | result |\n|---|---|")
    print(f"| cold first launch (transpile + nvcc + load) | {results['cold_first_launch_s']:.2f} s |")
    print(f"| first launch, disk cache hit (new process) | {results['disk_cache_first_launch_s'] * 1e3:.1f} ms |")
    w = results["warm"]["n=4096"]
    print(f"| warm ct.launch, host cost | {w['ct_launch_host_us']:.2f} us |")
    print(f"| ctypes entry alone, host cost | {w['ctypes_entry_host_us']:.2f} us |")
    print(f"| torch.add launch, host cost | {w['torch_add_host_us']:.2f} us |")
    for key, row in results["warm"].items():
        print(f"| kernel time {key} (tile2cu / torch.add) | {row['kernel_us']:.2f} us / {row['torch_add_kernel_us']:.2f} us |")
    print(f"| host programs | {len(results['host_programs']) - len(failed)}/{len(results['host_programs'])} ok |")
    sys.exit(1 if failed else 0)


def write():
    out = os.environ.get("OUT")
    if out:
        Path(out, "launcher_results.json").write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
