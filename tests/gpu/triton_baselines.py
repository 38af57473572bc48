#!/usr/bin/env python3
"""Row softmax, layer norm forward and RMS norm forward: tile2cu against Triton and torch.

The Triton kernels below are plain one-row-per-program baselines (the whole row in one block,
float32 math, as the tile2cu samples do). Each runs with num_warps in {4, 8, 16, 32} and the
fastest is reported, so the baseline is tuned the way a Triton user would tune it.

The tile2cu side is the generated library of samples/softmax.py, layer_norm.py and rms_norm.py
(bf16 specializations), called through the C ABI exactly as tests/gpu/run_samples.py does; that
script's checks cover correctness on ragged sizes, this one checks the benchmark size once more
(both implementations against torch) and then times all three in one process: CUDA events,
warm-up, a sweep of Triton's num_warps (median of --iters runs each), then tile2cu, Triton at its
best num_warps and torch timed call by call, interleaved, for --rounds rounds of --iters calls:
the medians of those are the reported numbers. Each timed call follows an untimed write of twice
the L2's size, so no contender inherits another's state (--no-flush: the old way, biased).
--profile runs each contender once, untimed, for a profiler (ncu -k regex:...).

    python3 tests/gpu/triton_baselines.py --gen DIR [--runtime runtime] [--commit C] [--json F]
                                          [--only softmax,softmax_fast_math,...]

Softmax is timed three ways: `softmax` (the bar: cuTile's default math against Triton's
tl.exp and `/`), `softmax_fast_math` (both with Triton's math) and `softmax_ieee` (both with
cuTile's: expf and the correctly rounded quotient).
"""

from __future__ import annotations

import argparse
import copy
import datetime
import json
import sys
from pathlib import Path

import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run_samples as rs  # noqa: E402  (the sample runner: building, binding, timing)


@triton.jit
def softmax_rows(x_ptr, y_ptr, n_cols, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    inside = cols < n_cols
    x = tl.load(x_ptr + row * stride_x + cols, mask=inside, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    y = e / tl.sum(e, axis=0)
    tl.store(y_ptr + row * stride_y + cols, y.to(y_ptr.dtype.element_ty), mask=inside)


@triton.jit
def softmax_rows_ieee(x_ptr, y_ptr, n_cols, stride_x, stride_y, BLOCK: tl.constexpr):
    """softmax_rows with cuTile's default math: CUDA's expf and the correctly rounded quotient
    (tl.exp is ex2.approx of x * log2 e, and `/` is div.full: 2 ulp each)."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    inside = cols < n_cols
    x = tl.load(x_ptr + row * stride_x + cols, mask=inside, other=-float("inf")).to(tl.float32)
    e = libdevice.exp(x - tl.max(x, axis=0))
    y = tl.div_rn(e, tl.sum(e, axis=0))
    tl.store(y_ptr + row * stride_y + cols, y.to(y_ptr.dtype.element_ty), mask=inside)


@triton.jit
def layer_norm_rows(x_ptr, w_ptr, b_ptr, y_ptr, mean_ptr, rstd_ptr, n_cols, stride_x, stride_y, eps,
                    BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    inside = cols < n_cols
    x = tl.load(x_ptr + row * stride_x + cols, mask=inside, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n_cols
    d = tl.where(inside, x - mean, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(d * d, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=inside, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + cols, mask=inside, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * stride_y + cols, (d * rstd * w + b).to(y_ptr.dtype.element_ty), mask=inside)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)


@triton.jit
def rms_norm_rows(x_ptr, w_ptr, y_ptr, n_cols, stride_x, stride_y, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    inside = cols < n_cols
    x = tl.load(x_ptr + row * stride_x + cols, mask=inside, other=0.0).to(tl.float32)
    scale = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=inside, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * stride_y + cols, (x * scale * w).to(y_ptr.dtype.element_ty), mask=inside)


M, N, EPS = 32768, 8192, 1e-5
WARPS = (4, 8, 16, 32)


def cases():
    """name -> (sample, spec, build(), tile2cu args, triton launcher(num_warps), torch fn, check)"""
    g = torch.Generator(device="cuda")
    g.manual_seed(int(datetime.datetime.now().timestamp()))
    bf = torch.bfloat16
    x = (torch.randn((M, N), generator=g, device="cuda") * 2).to(bf)
    w = torch.randn((N,), generator=g, device="cuda").to(bf)
    b = torch.randn((N,), generator=g, device="cuda").to(bf)
    y = torch.empty_like(x)
    mean = torch.empty(M, device="cuda")
    rstd = torch.empty(M, device="cuda")
    block = triton.next_power_of_2(N)
    grid = (M,)
    out = {}
    out["softmax"] = dict(
        sample="softmax", spec="softmax_bf16", args={"x": x, "y": y},
        triton=lambda nw: softmax_rows[grid](x, y, N, x.stride(0), y.stride(0), BLOCK=block, num_warps=nw),
        torch=lambda: torch.softmax(x, dim=1),
        ref=lambda: torch.softmax(x.float(), dim=1), tol=1e-2, target=(1.0, 2.0))
    # The same row softmax with the same math on both sides: Triton's math (approximate exp and
    # division) and cuTile's default math (expf and IEEE division).
    out["softmax_fast_math"] = dict(
        sample="softmax", spec="softmax_fast_math_bf16", args={"x": x, "y": y},
        triton=lambda nw: softmax_rows[grid](x, y, N, x.stride(0), y.stride(0), BLOCK=block, num_warps=nw),
        torch=lambda: torch.softmax(x, dim=1),
        ref=lambda: torch.softmax(x.float(), dim=1), tol=1e-2, target=(1.0, 2.0))
    out["softmax_ieee"] = dict(
        sample="softmax", spec="softmax_bf16", args={"x": x, "y": y},
        triton=lambda nw: softmax_rows_ieee[grid](x, y, N, x.stride(0), y.stride(0), BLOCK=block, num_warps=nw),
        torch=lambda: torch.softmax(x, dim=1),
        ref=lambda: torch.softmax(x.float(), dim=1), tol=1e-2, target=(1.0, 2.0))
    out["layer_norm_fwd"] = dict(
        sample="layer_norm", spec="layer_norm_fwd_bf16",
        args={"x": x, "w": w, "b": b, "y": y, "mean_out": mean, "rstd_out": rstd, "eps": EPS},
        triton=lambda nw: layer_norm_rows[grid](x, w, b, y, mean, rstd, N, x.stride(0), y.stride(0), EPS,
                                                BLOCK=block, num_warps=nw),
        torch=lambda: torch.nn.functional.layer_norm(x, (N,), w, b, EPS),
        ref=lambda: torch.nn.functional.layer_norm(x.float(), (N,), w.float(), b.float(), EPS),
        tol=6e-2, target=(1.0, 1.5))
    out["rms_norm_fwd"] = dict(
        sample="rms_norm", spec="rms_norm_bf16", args={"x": x, "w": w, "y": y, "eps": EPS},
        triton=lambda nw: rms_norm_rows[grid](x, w, y, N, x.stride(0), y.stride(0), EPS, BLOCK=block, num_warps=nw),
        torch=lambda: torch.nn.functional.rms_norm(x, (N,), w, EPS),
        ref=lambda: torch.nn.functional.rms_norm(x.float(), (N,), w.float(), EPS), tol=6e-2, target=(1.0, 1.5))
    return out, y, grid


def math_instructions(compiled):
    """Counts of the PTX exp, division and reciprocal instructions of a compiled Triton kernel."""
    import collections
    import re
    ptx = compiled.asm.get("ptx", "") if hasattr(compiled, "asm") else ""
    found = re.findall(r"\b(ex2\.[a-z0-9.]+|div\.[a-z0-9.]+|rcp\.[a-z0-9.]+)", ptx)
    return dict(collections.Counter(found)) or "PTX not available"


def max_rel(a, ref):
    return float(((a.float() - ref).abs() / (ref.abs() + 1e-2)).max())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", required=True)
    ap.add_argument("--runtime", default=str(rs.REPO / "runtime"))
    ap.add_argument("--commit", default="unknown")
    ap.add_argument("--iters", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=5, help="rounds of the interleaved timing")
    ap.add_argument("--json", default=None)
    ap.add_argument("--no-flush", action="store_true", help="time without the L2-clearing write before each call")
    ap.add_argument("--only", default=None, help="comma-separated case names (default: all)")
    ap.add_argument("--profile", action="store_true",
                    help="run each contender once, untimed (tile2cu, then Triton at 8 and 16 warps): for ncu")
    opts = ap.parse_args()
    rs.torch = torch
    run_opts = rs.parse_args(["--gen", opts.gen, "--runtime", opts.runtime])
    runner = rs.Tile2cuRunner(run_opts)
    found, errors = rs.discover(rs.REPO / "samples", {"softmax", "layer_norm", "rms_norm"})
    if errors:
        print("sidecar errors:", errors)
    # Experiment variants: gen/<sample>_t<anything>.cu, hand edits of the generated code (say
    # kThreads = N) with the same specializations, timed interleaved beside the real thing.
    variants = sorted(p.stem for p in Path(opts.gen).glob("*_t*.cu"))
    runner.prepare([s for s, _ in found] + variants)
    specs = {sp.name: sp for _, sps in found for sp in sps}

    table, report, ok = [], [], True
    all_cases, y, grid = cases()
    # Ahead of each timed call, a write of twice the L2's size: every contender then starts with
    # the same dirty L2 to write back, whichever contender ran before it.
    l2_flush = torch.empty(2 * torch.cuda.get_device_properties(0).L2_cache_size, dtype=torch.int8, device="cuda")
    flush_l2 = None if opts.no_flush else l2_flush.zero_
    for name, c in all_cases.items():
        if opts.only and name not in opts.only.split(","):
            continue
        spec = specs[c["spec"]]
        why = runner.unavailable(spec)
        if why:
            print(f"FAIL {name}: {why}")
            ok = False
            continue
        call = runner.bind(spec, grid, c["args"])
        ref = c["ref"]()
        y.fill_(float("nan"))
        assert call() == 0
        torch.cuda.synchronize()
        err_tile = max_rel(y, ref)
        y.fill_(float("nan"))
        c["triton"](8)
        torch.cuda.synchronize()
        err_triton = max_rel(y, ref)
        del ref
        if opts.profile:
            call()
            for nw in (8, 16):
                k = c["triton"](nw)
                print(f"{name}: Triton num_warps={nw}: {getattr(k, 'n_regs', '?')} registers, "
                      f"{getattr(k, 'n_spills', '?')} spills", flush=True)
            torch.cuda.synchronize()
            continue
        print(f"{name}: Triton's math instructions: {math_instructions(c['triton'](8))}", flush=True)
        t_tile, _ = rs.time_ms(lambda i: call(), opts.warmup, opts.iters)
        hand_variants, variant_calls = {}, {}
        for v in variants:
            if not v.startswith(c["sample"] + "_t"):
                continue
            vspec = copy.copy(spec)
            vspec.sample = v
            if runner.unavailable(vspec):
                hand_variants[v] = runner.unavailable(vspec)[:200]
                continue
            vcall = runner.bind(vspec, grid, c["args"])
            y.fill_(float("nan"))
            assert vcall() == 0
            torch.cuda.synchronize()
            verr = max_rel(y, c["ref"]())
            hand_variants[v] = {"max_rel_err": verr}
            variant_calls[v] = vcall
        t_triton = {nw: rs.time_ms(lambda i, nw=nw: c["triton"](nw), opts.warmup, opts.iters)[0] for nw in WARPS}
        best_nw = min(t_triton, key=t_triton.get)
        t_torch, _ = rs.time_ms(lambda i: c["torch"](), opts.warmup, opts.iters)
        sweep = dict(tile2cu_ms=t_tile, triton_ms=t_triton[best_nw], torch_ms=t_torch)
        # The reported numbers: Triton's best num_warps from the sweep above, then the three timed
        # call by call, interleaved, over --rounds rounds (the sweep's blocks of calls drift with
        # the clocks, and the best of four Triton medians is biased low).
        contenders = {"tile2cu": call, "triton": lambda: c["triton"](best_nw), "torch": c["torch"], **variant_calls}
        inter, rounds = rs.time_interleaved(contenders, opts.iters, opts.rounds, before=flush_l2)
        for v in variant_calls:
            hand_variants[v].update(ms=inter[v], vs_triton=inter["triton"] / inter[v], round_ms=rounds[v])
            print(f"  variant {v}: {hand_variants[v]}", flush=True)
        t_tile, t_torch = inter["tile2cu"], inter["torch"]
        t_triton[best_nw] = inter["triton"]
        vs_triton, vs_torch = t_triton[best_nw] / t_tile, t_torch / t_tile
        met = vs_triton >= c["target"][0] and vs_torch >= c["target"][1]
        checked = err_tile <= c["tol"] and err_triton <= c["tol"]
        ok &= checked
        gbps = (2 * M * N * 2) / (t_tile * 1e-3) / 1e9
        row = dict(kernel=name, shape=f"{M}x{N} bf16", tile2cu_ms=t_tile, triton_ms=t_triton[best_nw],
                   triton_num_warps=best_nw, triton_ms_by_warps=t_triton, torch_ms=t_torch,
                   vs_triton=vs_triton, vs_torch=vs_torch, target_vs_triton=c["target"][0],
                   target_vs_torch=c["target"][1], meets_target=met, tile2cu_gbps=gbps,
                   max_rel_err_tile2cu=err_tile, max_rel_err_triton=err_triton, checked=checked,
                   hand_variants=hand_variants, sweep_ms=sweep, interleaved_round_ms=rounds)
        report.append(row)
        table.append(f"| {name} | {t_tile:.3f} ({gbps:.0f} GB/s) | {t_triton[best_nw]:.3f} (num_warps={best_nw}) | "
                     f"{t_torch:.3f} | {vs_triton:.3f}x (>= {c['target'][0]}) | {vs_torch:.3f}x (>= {c['target'][1]}) | "
                     f"{'met' if met else 'MISSED'} | {err_tile:.1e} / {err_triton:.1e} |")
    dev = torch.cuda.get_device_name(0)
    print(f"\n## tile2cu vs Triton vs torch, bf16 {M}x{N}, {dev}, commit {opts.commit}\n")
    print("| kernel | tile2cu ms | Triton ms (best) | torch ms | vs Triton | vs torch | target | max rel err tile2cu / Triton |")
    print("|---|---:|---:|---:|---:|---:|---|---|")
    print("\n".join(table))
    data = {"device": dev, "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "commit": opts.commit, "torch": torch.__version__, "triton": triton.__version__,
            "iters": opts.iters, "l2_flush_before_each_call": not opts.no_flush, "results": report, "ok": ok}
    path = opts.json or (Path(__import__("os").environ["OUT"]) / "triton_baselines.json"
                         if __import__("os").environ.get("OUT") else None)
    if path:
        Path(path).write_text(json.dumps(data, indent=1) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
