#!/usr/bin/env python3
"""Transpose bandwidth against a device-to-device copy of the same bytes, in one run.

    python3 tests/gpu/bench_transpose.py --lib GEN/transpose.so --spec transpose_f32 [--spec ...]

For an fp32 8192 x 8192 matrix (256 MiB read + 256 MiB written) it times, with CUDA events
after a warm-up (median of --iters runs): each generated transpose specialization through its
C ABI, torch's `dst.copy_(src)` and `src.clone()` (the copy baselines), and torch's own
`y.copy_(x.t())`. The transpose is checked exactly against torch first. It prints a table and
writes JSON (--json, or $OUT/transpose_bench.json).
"""
import argparse
import ctypes
import datetime
import json
import os
import statistics
import sys
from pathlib import Path

import torch


def time_ms(fn, warmup, iters):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(iters)]
    for start, end in events:
        start.record()
        fn()
        end.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in events)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--spec", action="append", required=True, help="specialization name (repeatable)")
    ap.add_argument("--tile", action="append", default=[],
                    help="TMxTN of each --spec, for the grid; a suffix /swap puts the column tiles on grid x, "
                         "/swap2 also halves grid y (two row tiles per block), /stepsN gives each block N row tiles")
    ap.add_argument("--n", type=int, default=8192)
    ap.add_argument("--iters", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--commit", default="unknown")
    ap.add_argument("--json", default=None)
    opts = ap.parse_args()

    lib = ctypes.CDLL(opts.lib)
    n = opts.n
    x = torch.randn((n, n), device="cuda", dtype=torch.float32)
    y = torch.empty((n, n), device="cuda", dtype=torch.float32)
    copy_dst = torch.empty_like(x)
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    nbytes = 2 * x.numel() * x.element_size()  # read + write
    gbps = lambda ms: nbytes / (ms * 1e-3) / 1e9  # noqa: E731

    rows = []
    copy_ms = time_ms(lambda: copy_dst.copy_(x), opts.warmup, opts.iters)
    clone_ms = time_ms(lambda: x.clone(), opts.warmup, opts.iters)
    torch_t_ms = time_ms(lambda: y.copy_(x.t()), opts.warmup, opts.iters)
    copy_bw = gbps(copy_ms)
    ok_all = True
    for i, spec in enumerate(opts.spec):
        tile, _, order = (opts.tile[i] if i < len(opts.tile) else "64x64").partition("/")
        tm, tn = (int(v) for v in tile.split("x"))
        gx, gy = (n + tm - 1) // tm, (n + tn - 1) // tn
        if order.startswith("steps"):
            gx = (n + tm * int(order[5:]) - 1) // (tm * int(order[5:]))
        elif order:
            gx, gy = gy, gx // (2 if order == "swap2" else 1)
        fn = getattr(lib, f"tile2cu_{spec}")
        fn.restype = ctypes.c_int
        args = [stream, ctypes.c_uint(gx), ctypes.c_uint(gy), ctypes.c_uint(1),
                ctypes.c_void_p(x.data_ptr()), *(ctypes.c_int64(v) for v in (n, n, n, 1)),
                ctypes.c_void_p(y.data_ptr()), *(ctypes.c_int64(v) for v in (n, n, n, 1))]
        y.fill_(float("nan"))
        rc = fn(*args)
        torch.cuda.synchronize()
        ok = rc == 0 and bool(torch.equal(y, x.t()))
        ok_all &= ok
        ms = time_ms(lambda: fn(*args), opts.warmup, opts.iters)
        rows.append({"spec": spec, "tile": opts.tile[i] if i < len(opts.tile) else "64x64", "ok": ok, "ms": ms, "gbps": gbps(ms),
                     "fraction_of_copy": gbps(ms) / copy_bw})

    props = torch.cuda.get_device_properties(0)
    report = {"device": torch.cuda.get_device_name(0), "sms": props.multi_processor_count,
              "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "commit": opts.commit, "torch": torch.__version__, "shape": [n, n], "dtype": "float32",
              "bytes_moved": nbytes, "iters": opts.iters,
              "copy_": {"ms": copy_ms, "gbps": copy_bw}, "clone": {"ms": clone_ms, "gbps": gbps(clone_ms)},
              "torch_transpose_copy": {"ms": torch_t_ms, "gbps": gbps(torch_t_ms),
                                       "fraction_of_copy": gbps(torch_t_ms) / copy_bw},
              "tile2cu": rows, "target_fraction_of_copy": 0.85}
    print(f"device {report['device']}: fp32 {n}x{n}, {nbytes / 2**20:.0f} MiB moved per call")
    print(f"| what | ms | GB/s | of copy_ |\n|---|---|---|---|")
    print(f"| torch dst.copy_(x) | {copy_ms:.3f} | {copy_bw:.0f} | 1.00 |")
    print(f"| torch x.clone() | {clone_ms:.3f} | {gbps(clone_ms):.0f} | {gbps(clone_ms) / copy_bw:.2f} |")
    print(f"| torch y.copy_(x.t()) | {torch_t_ms:.3f} | {gbps(torch_t_ms):.0f} | {gbps(torch_t_ms) / copy_bw:.2f} |")
    for r in rows:
        print(f"| tile2cu {r['spec']} ({r['tile']}){'' if r['ok'] else ' WRONG'} | {r['ms']:.3f} | "
              f"{r['gbps']:.0f} | {r['fraction_of_copy']:.2f} |")
    path = opts.json or (Path(os.environ["OUT"]) / "transpose_bench.json" if os.environ.get("OUT") else None)
    if path:
        Path(path).write_text(json.dumps(report, indent=1) + "\n")
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
