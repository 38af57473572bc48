#!/usr/bin/env python3
"""Row kernels over short rows, one row per block (issue 30): softmax and RMS norm over rows of
64 and 256 bf16 elements, 32768 rows, through tile2cu's Python launcher (the kernels of
tests/python/small_tile_kernels.py, which run several blocks per CTA) against Triton's
one-row-per-program kernels at their best num_warps (1, 2, 4, 8) and torch.

Each case checks both against torch in float64 first, then times them in turn with CUDA events:
warm-up, --rounds rounds of --iters calls, medians reported; once with each contender's calls
replayed from a CUDA graph (the kernels' own time) and once called from Python (what a user's
loop sees, the launchers' host cost included). Ratio: Triton's (or
torch's) time / tile2cu's (above 1: tile2cu faster).

    PYTHONPATH=python:python/tile2cu/_site:tests/python TILE2CU_BIN=... \\
        python3 tests/gpu/bench_small_rows.py [--json F]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

import torch
import triton
import triton.language as tl

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
import cuda.tile as ct  # noqa: E402
import small_tile_kernels as k  # noqa: E402


@triton.jit
def triton_softmax(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(y_ptr + row * n_cols + cols, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=cols < n_cols)


@triton.jit
def triton_rms_norm(x_ptr, w_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
    ms = tl.sum(x * x, axis=0) / n_cols
    tl.store(y_ptr + row * n_cols + cols, (x * tl.rsqrt(ms + eps) * w).to(y_ptr.dtype.element_ty), mask=cols < n_cols)


def time_ms(fn, iters):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(iters):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / iters


def medians(calls, iters, rounds, graphs=False):
    """Median ms per call of each of `calls`, timed in turn. With graphs, each contender's `iters`
    calls are captured in one CUDA graph first, so the host's launch cost drops out and the
    kernels' own time is compared."""
    for fn in calls:
        for _ in range(3):
            fn()
    torch.cuda.synchronize()
    if graphs:
        replays = []
        for fn in calls:
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                for _ in range(iters):
                    fn()
            replays.append(g.replay)
        calls, iters_per_call = replays, 1
    else:
        iters_per_call = iters
    times = [[] for _ in calls]
    for _ in range(rounds):
        for t, fn in zip(times, calls):
            t.append(time_ms(fn, iters_per_call) / (iters if graphs else 1))
    return [statistics.median(t) for t in times]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=32768)
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--json")
    args = ap.parse_args()
    rows_out, ok_all = [], True
    for n in (64, 256):
        x = torch.randn(args.rows, n, device="cuda").bfloat16()
        w = torch.randn(n, device="cuda").bfloat16()
        y = torch.full_like(x, float("nan"))
        yt = torch.empty_like(x)
        eps = 1e-6
        cases = {
            "softmax": (lambda: ct.launch(torch.cuda.current_stream(), (args.rows,), k.softmax_rows, (x, y, n)),
                        lambda nw: triton_softmax[(args.rows,)](x, yt, n, BLOCK=n, num_warps=nw),
                        lambda: torch.softmax(x, 1),
                        torch.softmax(x.double(), 1)),
            "rms_norm": (lambda: ct.launch(torch.cuda.current_stream(), (args.rows,), k.rms_norm_rows, (x, w, y, eps, n)),
                         lambda nw: triton_rms_norm[(args.rows,)](x, w, yt, n, eps, BLOCK=n, num_warps=nw),
                         lambda: torch.nn.functional.rms_norm(x, (n,), w, eps),
                         x.double() * torch.rsqrt((x.double() ** 2).mean(1, keepdim=True) + eps) * w.double()),
        }
        for name, (ours, theirs, torch_call, ref) in cases.items():
            y.fill_(float("nan"))
            ours()
            theirs(4)
            torch.cuda.synchronize()
            ok = bool(torch.allclose(y.double(), ref, rtol=2e-2, atol=2e-2)) and \
                bool(torch.allclose(yt.double(), ref, rtol=2e-2, atol=2e-2))
            ok_all &= ok
            warps = {nw: medians([lambda nw=nw: theirs(nw)], args.iters, 5)[0] for nw in (1, 2, 4, 8)}
            best = min(warps, key=warps.get)
            for mode in ("graph", "eager"):
                t_ours, t_triton, t_torch = medians([ours, lambda: theirs(best), torch_call], args.iters,
                                                    args.rounds, graphs=mode == "graph")
                rows_out.append(dict(kernel=name, cols=n, mode=mode, ok=ok, tile2cu_ms=t_ours, triton_ms=t_triton,
                                     triton_warps=best, torch_ms=t_torch, vs_triton=t_triton / t_ours,
                                     vs_torch=t_torch / t_ours))
    print(f"device: {torch.cuda.get_device_name()}, {args.rows} rows, bf16")
    print("graph: each contender's calls replayed from one CUDA graph (kernel time); eager: called from Python")
    print(f"{'kernel':>9} {'cols':>4} {'mode':>5} {'ok':>3} {'tile2cu ms':>10} {'triton ms':>9} {'warps':>5} {'torch ms':>8} "
          f"{'vs triton':>9} {'vs torch':>8}")
    for r in rows_out:
        print(f"{r['kernel']:>9} {r['cols']:>4} {r['mode']:>5} {'yes' if r['ok'] else 'NO':>3} {r['tile2cu_ms']:>10.4f} "
              f"{r['triton_ms']:>9.4f} {r['triton_warps']:>5} {r['torch_ms']:>8.4f} {r['vs_triton']:>9.3f} "
              f"{r['vs_torch']:>8.3f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(device=torch.cuda.get_device_name(), rows=rows_out), f, indent=1)
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
