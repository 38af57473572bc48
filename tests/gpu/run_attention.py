#!/usr/bin/env python3
"""GPU check and benchmark of samples/attention.py (flash-attention forward).

Builds GEN/attention.cu twice: for sm_90a (the wgmma loop where BM=128), and as compute_80 PTX
that the driver compiles for this GPU (the sm_80 mma.sync loop, the fallback of every Ampere-class
card). Checks every specialization of both builds (bf16 / f16, head dims 64 and 128, causal and
not) at ragged sequence lengths against torch in float64, outputs poisoned first, then times batch 4, 16 heads, seq 8192, head dim 128 (bf16) against
torch.nn.functional.scaled_dot_product_attention with the flash backend, in the same run.
Writes $OUT/attention.json.

    python3 tests/gpu/run_attention.py --gen GEN --runtime runtime [--commit SHA] [--no-bench]
"""
import argparse
import ctypes
import datetime
import json
import math
import os
import statistics
import subprocess
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

# (specialization, dtype, head dim, causal, BM: query rows per block, as samples/attention.sigs says)
SPECS = [("attention_bf16_d64", torch.bfloat16, 64, False, 128), ("attention_bf16_d64_causal", torch.bfloat16, 64, True, 128),
         ("attention_bf16_d128", torch.bfloat16, 128, False, 128),
         ("attention_bf16_d128_causal", torch.bfloat16, 128, True, 128),
         ("attention_f16_d64", torch.float16, 64, False, 64), ("attention_f16_d64_causal", torch.float16, 64, True, 128),
         ("attention_f16_d128", torch.float16, 128, False, 128),
         ("attention_f16_d128_causal", torch.float16, 128, True, 128)]
BLOCK_ROWS = {spec[0]: spec[4] for spec in SPECS}


# The builds: the name used in reports, and nvcc's -gencode.
ARCHS = {"sm_90a": "arch=compute_90a,code=sm_90a", "compute_80": "arch=compute_80,code=compute_80"}


def build(gen, runtime, arch):
    so = Path(gen) / f"attention_{arch}.so"
    cmd = ["nvcc", "-std=c++17", "-O3", "-shared", "-Xcompiler", "-fPIC", f"-I{runtime}", f"-I{gen}",
           f"-gencode={ARCHS[arch]}", str(Path(gen) / "attention.cu"), "-o", str(so)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"nvcc ({arch}) failed:\n{r.stderr[-3000:]}")
    return ctypes.CDLL(str(so))


def launch(lib, spec, q, k, v, o, scale):
    fn = getattr(lib, f"tile2cu_{spec}")
    fn.restype = ctypes.c_int
    bh, seq = q.shape[0], q.shape[1]
    bm = BLOCK_ROWS[spec]
    args = [ctypes.c_void_p(torch.cuda.current_stream().cuda_stream), ctypes.c_uint((seq + bm - 1) // bm),
            ctypes.c_uint(bh), ctypes.c_uint(1)]
    for t in (q, k, v, o):
        args += [ctypes.c_void_p(t.data_ptr())] + [ctypes.c_int64(s) for s in t.shape] + [ctypes.c_int64(s) for s in t.stride()]
    args.append(ctypes.c_float(scale))
    err = fn(*args)
    if err:
        raise RuntimeError(f"{spec}: cudaError {err}")


def reference(q, k, v, causal, scale):
    s = (q.double() @ k.double().transpose(1, 2)) * scale
    if causal:
        n = q.shape[1]
        s = s.masked_fill(torch.ones(n, n, dtype=torch.bool, device=q.device).triu(1), float("-inf"))
    return torch.softmax(s, dim=-1) @ v.double()


def bench(fn, iters=10):
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
    return statistics.median(times)


def check_specs(lib, arch):
    """Every specialization at ragged sizes against float64 torch: (checks made, failures)."""
    failures, checks = [], 0
    for spec, dt, d, causal, _ in SPECS:
        for bh, seq in [(3, 200), (2, 129), (1, 512)]:
            q, k, v = (torch.randn(bh, seq, d, device="cuda").to(dt) for _ in range(3))
            o = torch.full((bh, seq, d), float("nan"), device="cuda").to(dt)
            scale = 1 / math.sqrt(d)
            launch(lib, spec, q, k, v, o, scale)
            ref = reference(q, k, v, causal, scale)
            err = (o.double() - ref).abs().max().item()
            checks += 1
            if not err <= 2e-2 or torch.isnan(o).any():
                failures.append(f"{arch} {spec} bh={bh} seq={seq}: max error {err:.3g}")
        # K and V rows 8 bytes apart from 16-byte alignment: the copy engine cannot take them, so
        # the sm_90a loop copies with cp.async (its fallback) and the sm_80 loop element by element.
        bh, seq = 2, 129
        q = torch.randn(bh, seq, d, device="cuda").to(dt)
        k, v = (torch.randn(bh, seq, d + 4, device="cuda").to(dt)[..., :d] for _ in range(2))
        o = torch.full((bh, seq, d), float("nan"), device="cuda").to(dt)
        launch(lib, spec, q, k, v, o, 1 / math.sqrt(d))
        err = (o.double() - reference(q, k, v, causal, 1 / math.sqrt(d))).abs().max().item()
        checks += 1
        if not err <= 2e-2 or torch.isnan(o).any():
            failures.append(f"{arch} {spec} bh={bh} seq={seq} K, V rows not 16-byte aligned: max error {err:.3g}")
    return checks, failures


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--gen", required=True)
    p.add_argument("--runtime", required=True)
    p.add_argument("--commit", default="")
    p.add_argument("--no-bench", action="store_true", help="checks only")
    p.add_argument("--bm", type=int, default=0, help="query rows per block of every specialization (a variant build)")
    args = p.parse_args()
    if args.bm:
        BLOCK_ROWS.update({spec: args.bm for spec in BLOCK_ROWS})
    libs = {arch: build(args.gen, args.runtime, arch) for arch in ARCHS}
    failures, checks = [], 0
    for arch, lib in libs.items():
        n, bad = check_specs(lib, arch)
        checks += n
        failures += bad
    lib = libs["sm_90a"]
    rows = []
    b, h, s = 4, 16, 8192
    timed = [("attention_bf16_d128", False, 128), ("attention_bf16_d128_causal", True, 128),
             ("attention_bf16_d64", False, 64)]
    if args.no_bench:
        timed = []
    for spec, causal, d in timed:
        q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
        o = torch.empty_like(q)
        scale = 1 / math.sqrt(d)
        flop = 4.0 * b * h * s * s * d / (2 if causal else 1)
        ours = bench(lambda: launch(lib, spec, q.view(b * h, s, d), k.view(b * h, s, d), v.view(b * h, s, d),
                                    o.view(b * h, s, d), scale), 10)
        row = {"spec": spec, "shape": f"b{b} h{h} s{s} d{d}", "ms": ours, "tflops": flop / ours / 1e9}
        o.fill_(float("nan"))  # the timed shape is checked too, against SDPA's output
        launch(lib, spec, q.view(b * h, s, d), k.view(b * h, s, d), v.view(b * h, s, d), o.view(b * h, s, d), scale)
        err = (o.float() - F.scaled_dot_product_attention(q, k, v, is_causal=causal).float()).abs().max().item()
        checks += 1
        if not err <= 2e-2:
            failures.append(f"{spec} b{b} h{h} s{s}: max error {err:.3g} against SDPA")
        for name, backend in [("flash", "FLASH_ATTENTION"), ("cudnn", "CUDNN_ATTENTION"), ("efficient", "EFFICIENT_ATTENTION")]:
            try:
                with torch.nn.attention.sdpa_kernel(getattr(torch.nn.attention.SDPBackend, backend)):
                    theirs = bench(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal), 10)
            except Exception as e:  # a backend this torch build or GPU does not offer
                print(f"SDPA {name}: not available ({type(e).__name__})")
                continue
            row.update({f"sdpa_{name}_ms": theirs, f"sdpa_{name}_tflops": flop / theirs / 1e9,
                        f"ratio_vs_sdpa_{name}": theirs / ours})
        rows.append(row)
    print(f"checks: {checks - len(failures)}/{checks} pass")
    for f in failures:
        print("FAIL", f)
    for r in rows:
        others = " | ".join(f"SDPA {n} {r[f'sdpa_{n}_tflops']:.0f} TFLOP/s, ratio {r[f'ratio_vs_sdpa_{n}']:.3f}"
                            for n in ("flash", "cudnn", "efficient") if f"sdpa_{n}_ms" in r)
        print(f"| {r['spec']} | {r['shape']} | {r['ms']:.2f} ms | {r['tflops']:.1f} TFLOP/s | {others} |")
    result = {"device": torch.cuda.get_device_name(0), "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
              "commit": args.commit, "torch": torch.__version__, "checks": checks, "failures": failures, "timings": rows}
    if os.environ.get("OUT"):
        Path(os.environ["OUT"], "attention.json").write_text(json.dumps(result, indent=1))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
