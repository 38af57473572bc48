#!/usr/bin/env python3
"""GPU check and benchmark of tile2cu's matrix multiplies (samples/matmul.py, samples/mma_dtypes.py,
samples/grouped_matmul.py, samples/splitk_atomic.py).

The transpiler has written GEN/<sample>.cu (+ .cuh) for each. This script
  1. builds each into a shared library with nvcc, for sm_90a and, as the fallback check, as
     compute_80 PTX (JIT-compiled by the driver: the sm_80 code path running on this GPU);
  2. checks every specialization on fresh random inputs with ragged sizes (not multiples of the
     tile; K odd so rows are not 16-byte aligned, and aligned sizes too), outputs poisoned first,
     against torch in float64 on the same (rounded) operands;
  3. times the GEMMs against torch.matmul (cuBLAS) in the same run: CUDA events, warm-up, median;
  4. prints a table and writes $OUT/matmul.json.

    python3 tests/gpu/run_matmul.py --gen GEN --runtime runtime [--commit SHA] [--quick]
"""
import argparse
import concurrent.futures
import ctypes
import datetime
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import torch

TORCH = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32,
         "float64": torch.float64, "int8": torch.int8, "uint8": torch.uint8, "int32": torch.int32,
         "float8_e4m3fn": torch.float8_e4m3fn, "float8_e5m2": torch.float8_e5m2}


def build(gen, runtime, name, arch, reuse=False):
    so = Path(gen) / f"{name}_{arch}.so"
    if reuse and so.exists():
        return so
    code = "sm_90a" if arch == "sm_90a" else "compute_80"
    virt = "compute_90a" if arch == "sm_90a" else "compute_80"
    cmd = ["nvcc", "-std=c++17", "-O3", "-shared", "-Xcompiler", "-fPIC", f"-I{runtime}", f"-I{gen}",
           f"-gencode=arch={virt},code={code}", str(Path(gen) / f"{name}.cu"), "-o", str(so)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(f"nvcc {name} {arch} failed:\n{r.stderr[-3000:]}")
    return so


def flat(t):
    """An array argument: data pointer, shapes, strides (elements)."""
    args = [ctypes.c_void_p(t.data_ptr())]
    args += [ctypes.c_int64(s) for s in t.shape]
    args += [ctypes.c_int64(s) for s in t.stride()]
    return args


def flat_list(tensors):
    """A list-of-arrays argument (C entry form): per item 1 + 2n int64 words (data pointer,
    shapes, strides), and the item count. The words buffer is returned too: keep it alive."""
    words = []
    for t in tensors:
        words += [t.data_ptr(), *t.shape, *t.stride()]
    buf = (ctypes.c_int64 * max(len(words), 1))(*words)
    return [ctypes.cast(buf, ctypes.POINTER(ctypes.c_int64)), ctypes.c_int32(len(tensors))], buf


def launch(lib, spec, grid, *arrays):
    fn = getattr(lib, f"tile2cu_{spec}")
    fn.restype = ctypes.c_int
    args = [ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)] + [ctypes.c_uint(g) for g in grid]
    keep = []
    for a in arrays:
        if isinstance(a, (list, tuple)):
            words, buf = flat_list(a)
            args += words
            keep.append(buf)
        else:
            args += flat(a)
    err = fn(*args)
    if err != 0:
        raise RuntimeError(f"{spec}: launch returned cudaError {err}")


def cdiv(a, b):
    return (a + b - 1) // b


def rand(shape, dtype):
    if dtype in ("int8",):
        return torch.randint(-128, 128, shape, dtype=torch.int8, device="cuda")
    if dtype == "uint8":
        return torch.randint(0, 256, shape, dtype=torch.uint8, device="cuda")
    return torch.randn(shape, device="cuda", dtype=torch.float32).to(TORCH[dtype])


def poisoned(shape, dtype):
    if dtype in ("int8", "uint8", "int32"):
        return torch.full(shape, 77, dtype=TORCH[dtype], device="cuda")
    return torch.full(shape, float("nan"), device="cuda").to(TORCH[dtype])


def tf32(x):
    """Round float32 to tf32 (nearest, ties away), as astype(ct.tfloat32) does."""
    b = x.contiguous().view(torch.int32)
    r = ((b + 0x1000) & ~0x1FFF)
    return r.view(torch.float32)


def close(out, ref, tol, what, failures):
    err = (out.double() - ref).abs().max().item()
    scale = max(ref.abs().max().item(), 1.0)
    ok = err <= tol * scale and not torch.isnan(out.double()).any().item()
    if not ok:
        failures.append(f"{what}: max error {err:.3g} (scale {scale:.3g}, tolerance {tol})")
    return ok


def check_matmul(lib, arch, failures, quick):
    # (1000, 1496, 1000): ragged in M, N and K with 16-byte aligned rows, so the sm_90a loop reads
    # through TMA and its out-of-bounds zero fill; K = 777 and N = 257 rows are not aligned (cp.async).
    sizes = [(1000, 1500, 777), (1024, 768, 1024), (129, 257, 4000), (1000, 1496, 1000)] if not quick else [(1000, 1500, 777)]
    specs = [("matmul_bf16", "bfloat16", 128, 256, False), ("matmul_f16", "float16", 128, 256, False),
             ("matmul_tf32", "float32", 128, 128, True), ("matmul_tf32_256", "float32", 128, 256, True),
             ("matmul_tf32_256x128", "float32", 256, 128, True),
             ("matmul_bf16_128", "bfloat16", 128, 128, False)]
    n = 0
    for spec, dt, bm, bn, is_tf32 in specs:
        for m, nn, k in sizes:
            a, b = rand((m, k), dt), rand((k, nn), dt)
            c = poisoned((m, nn), dt)
            launch(lib, spec, (cdiv(m, bm) * cdiv(nn, bn), 1, 1), a, b, c)
            ra, rb = (tf32(a), tf32(b)) if is_tf32 else (a, b)
            ref = ra.double() @ rb.double()
            close(c, ref, 1e-2 if dt != "float32" else 2e-3, f"{arch} {spec} {m}x{nn}x{k}", failures)
            n += 1
    # accumulate: C += A @ B in place, the main loop entered with C's tile (not zeros)
    for spec, dt, bm, bn, is_tf32 in [("accumulate_bf16", "bfloat16", 128, 256, False),
                                      ("accumulate_tf32_256x128", "float32", 256, 128, True)]:
        for m, nn, k in sizes:
            a, b, c = rand((m, k), dt), rand((k, nn), dt), rand((m, nn), dt)
            ra, rb = (tf32(a), tf32(b)) if is_tf32 else (a, b)
            ref = c.double() + ra.double() @ rb.double()
            launch(lib, spec, (cdiv(m, bm) * cdiv(nn, bn), 1, 1), a, b, c)
            close(c, ref, 1e-2 if dt != "float32" else 2e-3, f"{arch} {spec} {m}x{nn}x{k}", failures)
            n += 1
    # linear: Y = X @ W^T, W stored (N, K)
    for m, nn, k in sizes:
        x, w = rand((m, k), "bfloat16"), rand((nn, k), "bfloat16")
        y = poisoned((m, nn), "bfloat16")
        launch(lib, "linear_bf16", (cdiv(m, 128) * cdiv(nn, 256), 1, 1), x, w, y)
        close(y, x.double() @ w.double().T, 1e-2, f"{arch} linear_bf16 {m}x{nn}x{k}", failures)
        n += 1
    # persistent: grid = number of SMs
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    for m, nn, k in sizes:
        a, b = rand((m, k), "bfloat16"), rand((k, nn), "bfloat16")
        c = poisoned((m, nn), "bfloat16")
        launch(lib, "persistent_bf16", (sms, 1, 1), a, b, c)
        close(c, a.double() @ b.double(), 1e-2, f"{arch} persistent_bf16 {m}x{nn}x{k}", failures)
        n += 1
    # batched: (batch, M, K) x (batch, K, N)
    for z, m, nn, k in [(3, 200, 300, 100), (2, 256, 128, 512)]:
        a, b = rand((z, m, k), "float16"), rand((z, k, nn), "float16")
        c = poisoned((z, m, nn), "float16")
        launch(lib, "batched_f16", (cdiv(m, 128), cdiv(nn, 128), z), a, b, c)
        close(c, a.double() @ b.double(), 1e-2, f"{arch} batched_f16 {z}x{m}x{nn}x{k}", failures)
        n += 1
    # split-K: partial products, then their sum
    for m, nn, k in [(300, 500, 3000), (512, 512, 4096)]:
        a, b = rand((m, k), "bfloat16"), rand((k, nn), "bfloat16")
        partial = poisoned((4, m, nn), "float32")
        c = poisoned((m, nn), "bfloat16")
        launch(lib, "splitk_partial_bf16", (cdiv(m, 128), cdiv(nn, 128), 4), a, b, partial)
        launch(lib, "splitk_reduce_bf16", (cdiv(m, 64), cdiv(nn, 64), 1), partial, c)
        close(c, a.double() @ b.double(), 1e-2, f"{arch} splitk_bf16 {m}x{nn}x{k}", failures)
        n += 1
    return n


def check_grouped(lib, arch, failures):
    """samples/grouped_matmul.py: one persistent launch over groups of different M, N, K (one of
    them empty in M, one with K shorter than a k-tile)."""
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    n = 0
    groups = [(300, 200, 777), (1, 129, 64), (0, 64, 100), (517, 1000, 33), (1024, 256, 1536)]
    for spec, dt, c_dt in (("grouped_matmul_bf16", "bfloat16", "bfloat16"),
                           ("grouped_matmul_bf16_wide", "bfloat16", "bfloat16"),
                           ("grouped_matmul_f16", "float16", "float32")):
        for grid in ((sms, 1, 1), (7, 1, 1)):  # every SM; a few CTAs walking many tiles each
            As = [rand((m, k), dt) for m, nn, k in groups]
            Bs = [rand((k, nn), dt) for m, nn, k in groups]
            Cs = [poisoned((m, nn), c_dt) for m, nn, k in groups]
            launch(lib, spec, grid, As, Bs, Cs)
            for g, (a, b, c) in enumerate(zip(As, Bs, Cs)):
                m, nn, k = groups[g]
                if m:
                    close(c, a.double() @ b.double(), 1e-2 if c_dt == "bfloat16" else 2e-3,
                          f"{arch} {spec} grid {grid[0]} group {g} {m}x{nn}x{k}", failures)
            n += 1
    return n


def check_splitk_atomic(lib, arch, failures):
    """samples/splitk_atomic.py: the splits meet in C through atomic adds; the epilogue form
    leaves its workspace and counters zeroed, so a second call must give the same C."""
    n = 0
    for m, nn, k in [(300, 500, 3000), (129, 64, 4096), (512, 512, 100)]:
        a, b = rand((m, k), "bfloat16"), rand((k, nn), "bfloat16")
        ref = a.double() @ b.double()
        grid = (cdiv(m, 128), cdiv(nn, 128), 4)
        for spec, splits in (("splitk_atomic_bf16", 4), ("splitk_atomic_bf16_s8", 8)):
            c = torch.zeros((m, nn), dtype=torch.float32, device="cuda")
            launch(lib, spec, grid[:2] + (splits,), a, b, c)
            close(c, ref, 1e-4, f"{arch} {spec} {m}x{nn}x{k}", failures)
        workspace = torch.zeros((m, nn), dtype=torch.float32, device="cuda")
        counters = torch.zeros((grid[0], grid[1]), dtype=torch.int32, device="cuda")
        for call in (1, 2):
            c = poisoned((m, nn), "bfloat16")
            launch(lib, "splitk_atomic_epilogue_bf16", grid, a, b, c, workspace, counters)
            close(c, ref, 1e-2, f"{arch} splitk_atomic_epilogue_bf16 {m}x{nn}x{k} call {call}", failures)
            torch.cuda.synchronize()
            if workspace.abs().max().item() != 0 or counters.abs().max().item() != 0:
                failures.append(f"{arch} splitk_atomic_epilogue_bf16 {m}x{nn}x{k}: workspace/counters not cleared")
        n += 4
    return n


# Sample -> its check (lib, arch, failures, quick) -> number of checks.
CHECKS = {"matmul": check_matmul,
          "mma_dtypes": lambda lib, arch, failures, quick: check_mma(lib, arch, failures),
          "grouped_matmul": lambda lib, arch, failures, quick: check_grouped(lib, arch, failures),
          "splitk_atomic": lambda lib, arch, failures, quick: check_splitk_atomic(lib, arch, failures)}


MMA_SPECS = [  # spec, a dtype, b dtype, c dtype, TM, TN, TK, tf32, kernel
    ("mma_f16_f32", "float16", "float16", "float32", 64, 64, 64, False, "mma"),
    ("mma_f16_f16", "float16", "float16", "float16", 32, 64, 32, False, "mma"),
    ("mma_bf16_f32", "bfloat16", "bfloat16", "float32", 64, 32, 64, False, "mma"),
    ("mma_tf32_f32", "float32", "float32", "float32", 32, 32, 32, True, "mma"),
    ("mma_f32_f32", "float32", "float32", "float32", 32, 32, 32, False, "mma"),
    ("mma_f64_f64", "float64", "float64", "float64", 16, 16, 16, False, "mma"),
    ("mma_i8_i32", "int8", "int8", "int32", 32, 32, 64, False, "mma"),
    ("mma_u8_i8_i32", "uint8", "int8", "int32", 32, 32, 64, False, "mma"),
    ("mma_e4m3_f32", "float8_e4m3fn", "float8_e4m3fn", "float32", 32, 32, 64, False, "mma"),
    ("mma_e5m2_f16", "float8_e5m2", "float8_e5m2", "float16", 32, 32, 64, False, "mma"),
    ("mma_i8_u8_i32", "int8", "uint8", "int32", 64, 32, 128, False, "mma"),
    ("mma_e4m3_f16", "float8_e4m3fn", "float8_e4m3fn", "float16", 32, 64, 32, False, "mma"),
    ("mma_e5m2_f32", "float8_e5m2", "float8_e5m2", "float32", 16, 32, 128, False, "mma"),
    ("mma_i8_i32_k16", "int8", "int8", "int32", 32, 32, 16, False, "mma"),
    ("matmul_f16", "float16", "float16", "float16", 64, 64, 64, False, "matmul"),
    ("matmul_i8", "int8", "int8", "int8", 32, 32, 32, False, "matmul"),
]


def check_mma(lib, arch, failures):
    n = 0
    for spec, da, db, dc, tm, tn, tk, is_tf32, kind in MMA_SPECS:
        m, nn, k = 3 * tm - 5, 2 * tn + 3, tk - 3  # ragged in every dim (K <= TK)
        a, b = rand((m, k), da), rand((k, nn), db)
        if kind == "mma":
            c_in = rand((m, nn), dc) if dc not in ("int32",) else torch.randint(-1000, 1000, (m, nn), dtype=torch.int32, device="cuda")
            c = c_in.clone()
        else:
            c_in = None
            c = poisoned((m, nn), dc)
        launch(lib, spec, (cdiv(m, tm), cdiv(nn, tn), 1), a, b, c)
        ra, rb = (tf32(a), tf32(b)) if is_tf32 else (a, b)
        ref = ra.double() @ rb.double()
        if c_in is not None:
            ref = ref + c_in.double()
        if dc == "int8":  # matmul of int8 returns int8: the int32 product, wrapped
            ref = (ref.long() & 0xFF).to(torch.uint8).view(torch.int8).double()
            close(c, ref, 0, f"{arch} {spec}", failures)
        elif dc == "int32":
            close(c, ref, 0, f"{arch} {spec}", failures)
        else:
            tol = {"float16": 2e-3, "float32": 2e-5 if da == "float32" and not is_tf32 else 2e-3, "float64": 1e-12}[dc]
            if da == "float8_e5m2" or dc == "float16":
                tol = 5e-3
            close(c, ref, tol, f"{arch} {spec}", failures)
        n += 1
    # batched (2-D y broadcast over the batch) and order=(1, 0) transposed operand
    z, m, nn, k = 5, 30, 50, 30
    a, b = rand((z, m, k), "bfloat16"), rand((k, nn), "bfloat16")
    c = poisoned((z, m, nn), "float32")
    launch(lib, "batched_bf16", (cdiv(z, 2), 1, 1), a, b, c)
    close(c, a.double() @ b.double(), 1e-5, f"{arch} batched_bf16", failures)
    m, nn, k = 100, 60, 50
    a, bt = rand((m, k), "float16"), rand((nn, k), "float16")
    c = poisoned((m, 64), "float32")[:, :nn]
    launch(lib, "transposed_f16", (cdiv(m, 64), 1, 1), a, bt, c)
    close(c, a.double() @ bt.double().T, 1e-5, f"{arch} transposed_f16", failures)
    # a batch dim of 1 broadcast over b's batch, and B turned by ct.transpose before the mma
    z, m, nn, k = 5, 30, 20, 27
    a, b = rand((1, m, k), "float16"), rand((z, k, nn), "float16")
    c = poisoned((z, m, nn), "float32")
    launch(lib, "broadcast_batch_f16", (cdiv(z, 2), 1, 1), a, b, c)
    close(c, a.double() @ b.double(), 1e-5, f"{arch} broadcast_batch_f16", failures)
    m, nn, k = 100, 60, 30
    a, bt = rand((m, k), "bfloat16"), rand((nn, k), "bfloat16")
    c = poisoned((m, 64), "float32")[:, :nn]
    launch(lib, "transpose_operand_bf16", (cdiv(m, 64), 1, 1), a, bt, c)
    close(c, a.double() @ bt.double().T, 1e-5, f"{arch} transpose_operand_bf16", failures)
    return n + 4


def bench(fn, iters):
    """Median ms of back-to-back calls (events around each, one synchronize at the end): a call's
    host work overlaps the previous call's kernel, as in a loop of launches. Synchronizing after
    every call would add the host work (the list tables' upload of the grouped GEMM, ~0.1 ms) to
    the device time."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    events = []
    for _ in range(iters):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        events.append((s, e))
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in events)


def timings(lib, quick, arch="sm_90a"):
    rows = []
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    shapes = [(8192, 8192, 8192), (4096, 4096, 4096), (16384, 1024, 8192)]
    cases = [("matmul_bf16", "bfloat16", 128, 256), ("matmul_f16", "float16", 128, 256),
             ("matmul_bf16_128", "bfloat16", 128, 128), ("persistent_bf16", "bfloat16", 128, 256),
             ("linear_bf16", "bfloat16", 128, 256),
             ("matmul_tf32", "float32", 128, 128), ("matmul_tf32_256", "float32", 128, 256),
             ("matmul_tf32_256x128", "float32", 256, 128)]
    if arch != "sm_90a":  # the mma.sync path (compute_80 PTX), for reference: two cases
        cases = [c for c in cases if c[0] in ("matmul_bf16", "matmul_tf32")]
    for spec, dt, bm, bn in cases:
        for m, n, k in (shapes if not quick and arch == "sm_90a" else shapes[:1]):
            if spec.startswith("matmul_tf32") and (m, n, k) != (8192, 8192, 8192):
                continue
            linear = spec.startswith("linear")
            a, b = rand((m, k), dt), rand((n, k) if linear else (k, n), dt)
            c = torch.empty((m, n), dtype=TORCH[dt], device="cuda")
            grid = (sms, 1, 1) if spec.startswith("persistent") else (cdiv(m, bm) * cdiv(n, bn), 1, 1)
            torch.backends.cuda.matmul.allow_tf32 = dt == "float32"
            iters = 20
            t_ours = bench(lambda: launch(lib, spec, grid, a, b, c), iters)
            t_torch = bench((lambda: torch.nn.functional.linear(a, b)) if linear else (lambda: torch.matmul(a, b)), iters)
            flop = 2.0 * m * n * k
            rows.append({"spec": spec, "arch": arch, "shape": f"{m}x{n}x{k}", "ms": t_ours, "torch_ms": t_torch,
                         "tflops": flop / t_ours / 1e9, "torch_tflops": flop / t_torch / 1e9,
                         "ratio_vs_torch": t_torch / t_ours})
    torch.backends.cuda.matmul.allow_tf32 = False
    return rows


def timings_grouped_splitk(libs):
    """Grouped GEMM against eager torch (one torch.matmul per group) and one-pass split-K against
    torch.matmul (cuBLAS picks its own split), bf16, sm_90a build."""
    rows = []
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    grouped = ctypes.CDLL(str(libs[("grouped_matmul", "sm_90a")]))
    # A mixture-of-experts layer: 8 experts, ragged token counts, K = N = 2048.
    tokens = [1024, 3000, 129, 2048, 777, 4096, 1, 1500]
    As = [rand((m, 2048), "bfloat16") for m in tokens]
    Bs = [rand((2048, 2048), "bfloat16") for _ in tokens]
    Cs = [torch.empty((m, 2048), dtype=torch.bfloat16, device="cuda") for m in tokens]
    t_torch = bench(lambda: [torch.matmul(a, b, out=c) for a, b, c in zip(As, Bs, Cs)], 20)
    flop = sum(2.0 * m * 2048 * 2048 for m in tokens)
    for spec, bn in (("grouped_matmul_bf16", 128), ("grouped_matmul_bf16_wide", 256)):
        tiles = sum(cdiv(m, 128) for m in tokens) * cdiv(2048, bn)
        for grid, how in (((sms, 1, 1), "persistent"), ((tiles, 1, 1), "a CTA per tile")):
            t_ours = bench(lambda: launch(grouped, spec, grid, As, Bs, Cs), 20)
            rows.append({"spec": spec, "arch": "sm_90a",
                         "shape": f"8 groups, M {min(tokens)}..{max(tokens)}, N=K=2048, {how}",
                         "ms": t_ours, "torch_ms": t_torch, "tflops": flop / t_ours / 1e9,
                         "torch_tflops": flop / t_torch / 1e9, "ratio_vs_torch": t_torch / t_ours})
    splitk = ctypes.CDLL(str(libs[("splitk_atomic", "sm_90a")]))
    m, n, k = 512, 512, 16384   # 16 output tiles: too few for the GPU without splitting K
    a, b = rand((m, k), "bfloat16"), rand((k, n), "bfloat16")
    c = torch.empty((m, n), dtype=torch.float32, device="cuda")

    t_torch = bench(lambda: torch.matmul(a, b), 20)
    flop = 2.0 * m * n * k
    for spec, splits in (("splitk_atomic_bf16", 4), ("splitk_atomic_bf16_s8", 8)):
        def ours():
            c.zero_()   # part of every call: the splits add into C
            launch(splitk, spec, (cdiv(m, 128), cdiv(n, 128), splits), a, b, c)
        t_ours = bench(ours, 20)
        rows.append({"spec": spec, "arch": "sm_90a", "shape": f"{m}x{n}x{k}", "ms": t_ours,
                     "torch_ms": t_torch, "tflops": flop / t_ours / 1e9, "torch_tflops": flop / t_torch / 1e9,
                     "ratio_vs_torch": t_torch / t_ours})
    return rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--gen", required=True)
    p.add_argument("--runtime", required=True)
    p.add_argument("--commit", default="")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--full-checks", action="store_true", help="every check size even with --quick (timings stay quick)")
    p.add_argument("--no-bench", action="store_true")
    p.add_argument("--only", default=",".join(CHECKS), help="comma-separated samples (default: %(default)s)")
    p.add_argument("--reuse-libs", action="store_true", help="load GEN/<sample>_<arch>.so where it exists")
    args = p.parse_args()
    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    samples = [n for n in args.only.split(",") if n]
    jobs = [(n, a) for n in samples for a in ("sm_90a", "sm_80")]
    with concurrent.futures.ThreadPoolExecutor(len(jobs)) as ex:
        libs = dict(zip(jobs, ex.map(lambda j: build(args.gen, args.runtime, *j, args.reuse_libs), jobs)))
    failures, checked = [], 0
    for arch in ("sm_90a", "sm_80"):
        for name in samples:
            checked += CHECKS[name](ctypes.CDLL(str(libs[(name, arch)])), arch, failures, args.quick and not args.full_checks)
    torch.cuda.synchronize()
    rows = []
    if not args.no_bench and "matmul" in samples:
        rows += timings(ctypes.CDLL(str(libs[("matmul", "sm_90a")])), args.quick)
        rows += timings(ctypes.CDLL(str(libs[("matmul", "sm_80")])), args.quick, "sm_80")
    if not args.no_bench and "grouped_matmul" in samples and "splitk_atomic" in samples:
        rows += timings_grouped_splitk(libs)
    print(f"checks: {checked - len(failures)}/{checked} pass")
    for f in failures:
        print("FAIL", f)
    print("| spec | build | shape | ms | TFLOP/s | torch.matmul TFLOP/s | ratio |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['spec']} | {r['arch']} | {r['shape']} | {r['ms']:.3f} | {r['tflops']:.0f} | {r['torch_tflops']:.0f} | {r['ratio_vs_torch']:.2f} |")
    result = {"device": torch.cuda.get_device_name(0), "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
              "commit": args.commit, "torch": torch.__version__, "checks": checked, "failures": failures,
              "timings": rows}
    if os.environ.get("OUT"):
        Path(os.environ["OUT"], "matmul.json").write_text(json.dumps(result, indent=1))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
