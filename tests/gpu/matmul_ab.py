#!/usr/bin/env python3
"""Same-process A/B timing of samples/matmul.py built against two (or more) runtimes, beside
torch.matmul: the way to tell whether a runtime change moved the GEMMs.

Each runtime's library is built from the same generated GEN/matmul.cu; every library is checked
first (fresh random inputs, one ragged size, float64 reference), then each case is timed in
rounds of calls interleaved one by one (runtime 1, runtime 2, ..., torch, in a rotating order),
CUDA events, the median of each round; the table shows the median of the rounds.

    python3 tests/gpu/matmul_ab.py --gen GEN --runtime old=DIR --runtime new=runtime [--rounds 3]
"""
import argparse
import concurrent.futures
import ctypes
import datetime
import json
import os
import shutil
import statistics
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).parent))
import run_samples as rs  # noqa: E402
from run_matmul import build, cdiv, close, launch, poisoned, rand, tf32  # noqa: E402

# spec, dtype, BM, BN, shape (M, N, K); linear specs take B as (N, K).
CASES = [("matmul_bf16", "bfloat16", 128, 256, (8192, 8192, 8192)),
         ("matmul_f16", "float16", 128, 256, (8192, 8192, 8192)),
         ("matmul_bf16", "bfloat16", 128, 256, (4096, 4096, 4096)),
         ("matmul_bf16", "bfloat16", 128, 256, (16384, 1024, 8192)),
         ("persistent_bf16", "bfloat16", 128, 256, (8192, 8192, 8192)),
         ("linear_bf16", "bfloat16", 128, 256, (8192, 8192, 8192)),
         ("matmul_tf32_256x128", "float32", 256, 128, (8192, 8192, 8192))]


def operands(spec, dtype, m, n, k):
    a = rand((m, k), dtype)
    b = rand((n, k) if spec.startswith("linear") else (k, n), dtype)
    return a, b


def reference(spec, a, b):
    if spec.startswith("linear"):
        return a.double() @ b.double().T
    if "tf32" in spec:
        return tf32(a).double() @ tf32(b).double()
    return a.double() @ b.double()


def grid_for(spec, m, n, bm, bn):
    if spec.startswith("persistent"):
        return (torch.cuda.get_device_properties(0).multi_processor_count, 1, 1)
    return (cdiv(m, bm) * cdiv(n, bn), 1, 1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--gen", required=True)
    p.add_argument("--runtime", action="append", required=True, help="NAME=DIR, two or more")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--iters", type=int, default=30)
    p.add_argument("--commit", default="")
    args = p.parse_args()
    rs.torch = torch
    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    runtimes = dict(item.split("=", 1) for item in args.runtime)
    dirs = {}
    for name in runtimes:  # one folder per runtime, so the parallel builds do not share a library
        dirs[name] = Path(args.gen, f"ab_{name}")
        dirs[name].mkdir(exist_ok=True)
        for f in ("matmul.cu", "matmul.cuh"):
            shutil.copy(Path(args.gen, f), dirs[name] / f)
    with concurrent.futures.ThreadPoolExecutor(len(runtimes)) as ex:
        sos = dict(zip(runtimes, ex.map(lambda x: build(dirs[x], runtimes[x], "matmul", "sm_90a"), runtimes)))
    libs = {name: ctypes.CDLL(str(so)) for name, so in sos.items()}

    failures = []
    for name, lib in libs.items():
        for spec, dtype, bm, bn, _ in CASES:
            m, n, k = 1000, 1496, 1000
            a, b = operands(spec, dtype, m, n, k)
            c = poisoned((m, n), dtype)
            launch(lib, spec, grid_for(spec, m, n, bm, bn), a, b, c)
            close(c, reference(spec, a, b), 1e-2 if dtype != "float32" else 2e-3, f"{name} {spec}", failures)
    torch.cuda.synchronize()

    rows = []
    for spec, dtype, bm, bn, (m, n, k) in CASES:
        a, b = operands(spec, dtype, m, n, k)
        c = torch.empty((m, n), dtype=a.dtype, device="cuda")
        torch.backends.cuda.matmul.allow_tf32 = dtype == "float32"
        grid = grid_for(spec, m, n, bm, bn)
        fns = {name: (lambda lib=lib: launch(lib, spec, grid, a, b, c)) for name, lib in libs.items()}
        fns["torch"] = (lambda: torch.nn.functional.linear(a, b)) if spec.startswith("linear") else (lambda: torch.matmul(a, b))
        _, runs = rs.time_interleaved(fns, args.iters, args.rounds)
        torch.backends.cuda.matmul.allow_tf32 = False
        flop = 2.0 * m * n * k
        row = {"spec": spec, "shape": f"{m}x{n}x{k}", "ms": {x: statistics.median(t) for x, t in runs.items()},
               "rounds_ms": runs}
        row["tflops"] = {x: flop / t / 1e9 for x, t in row["ms"].items()}
        row["vs_torch"] = {x: row["ms"]["torch"] / t for x, t in row["ms"].items() if x != "torch"}
        rows.append(row)

    names = list(libs)
    print(f"checks: {len(libs) * len(CASES) - len(failures)}/{len(libs) * len(CASES)} pass")
    for f in failures:
        print("FAIL", f)
    print("| spec | shape | " + " | ".join(f"{x} TFLOP/s" for x in names) + " | torch TFLOP/s | " +
          " | ".join(f"{x}/torch" for x in names) + " |")
    print("|---|---|" + "---|" * (2 * len(names) + 1))
    for r in rows:
        print(f"| {r['spec']} | {r['shape']} | " + " | ".join(f"{r['tflops'][x]:.0f}" for x in names) +
              f" | {r['tflops']['torch']:.0f} | " + " | ".join(f"{r['vs_torch'][x]:.3f}" for x in names) + " |")
    result = {"device": torch.cuda.get_device_name(0), "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
              "commit": args.commit, "torch": torch.__version__, "runtimes": runtimes,
              "failures": failures, "rows": rows}
    if os.environ.get("OUT"):
        Path(os.environ["OUT"], "matmul_ab.json").write_text(json.dumps(result, indent=1))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
