#!/usr/bin/env python3
"""tile2cu's row kernels against Triton's baselines at 8 and at 16 warps, side by side.

triton_baselines.py reports Triton at its best num_warps; this separates the two shapes: at 8
warps Triton runs 256 threads a row, as tile2cu does, at 16 warps 512. Interleaved timing
(run_samples.time_interleaved), with and without the L2 flush before each call.

    python3 tests/gpu/triton_warps.py --gen DIR [--runtime runtime]
"""
import argparse
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run_samples as rs  # noqa: E402
import triton_baselines as tb  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", required=True)
    ap.add_argument("--runtime", default=str(rs.REPO / "runtime"))
    ap.add_argument("--only", default="softmax,softmax_fast_math,layer_norm_fwd,rms_norm_fwd")
    opts = ap.parse_args()
    rs.torch = torch
    runner = rs.Tile2cuRunner(rs.parse_args(["--gen", opts.gen, "--runtime", opts.runtime]))
    found, _ = rs.discover(rs.REPO / "samples", {"softmax", "layer_norm", "rms_norm"})
    runner.prepare([s for s, _ in found])
    specs = {sp.name: sp for _, sps in found for sp in sps}
    cases, _, grid = tb.cases()
    flush = torch.empty(2 * torch.cuda.get_device_properties(0).L2_cache_size, dtype=torch.int8, device="cuda")
    print(torch.cuda.get_device_name(0))
    for name in opts.only.split(","):
        c = cases[name]
        call = runner.bind(specs[c["spec"]], grid, c["args"])
        fns = {"tile2cu": call, "triton8": lambda c=c: c["triton"](8), "triton16": lambda c=c: c["triton"](16)}
        for label, before in (("flush", flush.zero_), ("no flush", None)):
            t, _ = rs.time_interleaved(fns, 100, 5, before=before)
            print(f"{name:18s} {label:8s} " + "  ".join(f"{k} {v:.4f}" for k, v in t.items())
                  + f"  | t8/tile {t['triton8'] / t['tile2cu']:.4f} t16/tile {t['triton16'] / t['tile2cu']:.4f}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
