#!/usr/bin/env python3
"""cuTile's first sample, a vector add with small tiles, through tile2cu's Python launcher against
cupy.add and torch.add (issue 30). The kernel is the sample's, unchanged but for the tile size;
it is launched exactly as the sample does (`ct.launch(stream, (n // TILE, 1, 1), kernel, ...)`),
on CuPy arrays and on torch tensors.

Each case checks the result first (fresh random inputs, output poisoned with NaN), then times
tile2cu's launch and the library's add call by call, interleaved, with CUDA events: warm-up, then
--rounds rounds of --iters calls; the medians are reported. The ratio is library time / tile2cu
time (above 1: tile2cu faster).

    PYTHONPATH=python:_site TILE2CU_BIN=... python3 tests/gpu/bench_small_tiles.py [--json F]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys

import cupy
import torch

import cuda.tile as ct


@ct.kernel
def vector_add_kernel(a, b, result, TILE: ct.Constant[int]):
    block_id = ct.bid(0)
    a_tile = ct.load(a, index=(block_id,), shape=(TILE,))
    b_tile = ct.load(b, index=(block_id,), shape=(TILE,))
    result_tile = a_tile + b_tile
    ct.store(result, index=(block_id,), tile=result_tile)


def time_ms(fn, iters):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(iters):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / iters


def compare(tile2cu_call, library_call, iters, rounds):
    for _ in range(3):
        tile2cu_call()
        library_call()
    torch.cuda.synchronize()
    ours, theirs = [], []
    for _ in range(rounds):
        ours.append(time_ms(tile2cu_call, iters))
        theirs.append(time_ms(library_call, iters))
    return statistics.median(ours), statistics.median(theirs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--json")
    args = ap.parse_args()
    rows = []
    for log2n in (26, 28):
        n = 1 << log2n
        for dtype in ("float32", "float16"):
            for tile in (16, 32, 64):
                grid = (n // tile, 1, 1)
                if grid[0] > (1 << 24) - 1:  # cuTile's grid limit: ct.launch refuses it
                    print(f"skipped: n=2^{log2n} tile={tile}: {grid[0]} blocks exceed the 24-bit grid limit")
                    continue
                # CuPy arrays, the sample's way.
                a = cupy.random.standard_normal(n, dtype=cupy.float32).astype(dtype)
                b = cupy.random.standard_normal(n, dtype=cupy.float32).astype(dtype)
                out = cupy.full(n, cupy.nan, dtype=dtype)
                stream = cupy.cuda.get_current_stream()
                ct.launch(stream, grid, vector_add_kernel, (a, b, out, tile))
                stream.synchronize()
                ok = bool(cupy.array_equal(out, a + b))
                theirs_out = cupy.empty_like(out)
                ours, theirs = compare(lambda: ct.launch(stream, grid, vector_add_kernel, (a, b, out, tile)),
                                       lambda: cupy.add(a, b, out=theirs_out), args.iters, args.rounds)
                rows.append(dict(n=f"2^{log2n}", dtype=dtype, tile=tile, arrays="cupy", ok=ok, tile2cu_ms=ours,
                                 library_ms=theirs, ratio=theirs / ours,
                                 tile2cu_tb_s=3 * n * a.itemsize / ours / 1e9))
                del a, b, out, theirs_out
                # torch tensors.
                ta = torch.randn(n, device="cuda").to(getattr(torch, dtype))
                tb = torch.randn(n, device="cuda").to(getattr(torch, dtype))
                tout = torch.full_like(ta, float("nan"))
                tstream = torch.cuda.current_stream()
                ct.launch(tstream, grid, vector_add_kernel, (ta, tb, tout, tile))
                torch.cuda.synchronize()
                ok = torch.equal(tout, ta + tb)
                theirs_out = torch.empty_like(tout)
                ours, theirs = compare(lambda: ct.launch(tstream, grid, vector_add_kernel, (ta, tb, tout, tile)),
                                       lambda: torch.add(ta, tb, out=theirs_out), args.iters, args.rounds)
                rows.append(dict(n=f"2^{log2n}", dtype=dtype, tile=tile, arrays="torch", ok=ok, tile2cu_ms=ours,
                                 library_ms=theirs, ratio=theirs / ours,
                                 tile2cu_tb_s=3 * n * ta.element_size() / ours / 1e9))
                del ta, tb, tout, theirs_out
                torch.cuda.empty_cache()
                cupy.get_default_memory_pool().free_all_blocks()
    print(f"device: {torch.cuda.get_device_name()}")
    print(f"{'n':>5} {'dtype':>8} {'tile':>4} {'arrays':>6} {'ok':>3} {'tile2cu ms':>10} {'library ms':>10} "
          f"{'ratio':>6} {'TB/s':>5}")
    for r in rows:
        print(f"{r['n']:>5} {r['dtype']:>8} {r['tile']:>4} {r['arrays']:>6} {'yes' if r['ok'] else 'NO':>3} "
              f"{r['tile2cu_ms']:>10.4f} {r['library_ms']:>10.4f} {r['ratio']:>6.3f} {r['tile2cu_tb_s']:>5.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(device=torch.cuda.get_device_name(), rows=rows), f, indent=1)
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
