#!/usr/bin/env python3
"""Row kernels (softmax, layer norm and RMS norm forward, bf16, 32768 rows) of two or more builds of
the generated code, on whole rows (N = 8192 = TN) and ragged ones (N = 8190: every row misses the
whole-tile path; --widths picks others), timed interleaved with an L2-clearing write before each
call. An A/B tool for changes to the runtime's load/store paths: each build is a folder of
generated code and the runtime it goes with.

    python3 tests/gpu/ab_rows.py old=GEN_OLD:RUNTIME_OLD new=GEN_NEW:runtime [--widths 8192,8190,5120]
"""
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run_samples as rs  # noqa: E402

M, EPS = 32768, 1e-5


def main(argv):
    rs.torch = torch
    widths = [8192, 8190]
    if "--widths" in argv:
        at = argv.index("--widths")
        widths = [int(w) for w in argv[at + 1].split(",")]
        argv = argv[:at] + argv[at + 2:]
    builds = dict(arg.split("=", 1) for arg in argv)
    # Every build has the samples' specializations (the .sigs files of this checkout).
    found, _ = rs.discover(rs.REPO / "samples", {"layer_norm", "rms_norm", "softmax"})
    specs = {sp.name: sp for _, sps in found for sp in sps}
    runners = {}
    for name, where in builds.items():
        gen, runtime = where.split(":")
        runner = rs.Tile2cuRunner(rs.parse_args(["--gen", gen, "--runtime", runtime]))
        runner.prepare([s for s, _ in found])
        runners[name] = runner
    flush = torch.empty(2 * torch.cuda.get_device_properties(0).L2_cache_size, dtype=torch.int8, device="cuda")
    ok = True
    for n in widths:
        x = (torch.randn(M, n, device="cuda") * 2).bfloat16()
        w, b = torch.randn(n, device="cuda").bfloat16(), torch.randn(n, device="cuda").bfloat16()
        y = torch.empty_like(x)
        mean, rstd = torch.empty(M, device="cuda"), torch.empty(M, device="cuda")
        cases = {
            "layer_norm_fwd_bf16": ({"x": x, "w": w, "b": b, "y": y, "mean_out": mean, "rstd_out": rstd, "eps": EPS},
                                    lambda: torch.nn.functional.layer_norm(x.float(), (n,), w.float(), b.float(), EPS)),
            "rms_norm_bf16": ({"x": x, "w": w, "y": y, "eps": EPS},
                              lambda: torch.nn.functional.rms_norm(x.float(), (n,), w.float(), EPS)),
            "softmax_bf16": ({"x": x, "y": y}, lambda: torch.softmax(x.float(), dim=1))}
        for spec, (args, reference) in cases.items():
            ref = reference()
            calls = {}
            for name, runner in runners.items():
                call = runner.bind(specs[spec], (M,), args)
                y.fill_(float("nan"))
                assert call() == 0
                torch.cuda.synchronize()
                err = float(((y.float() - ref).abs() / (ref.abs() + 1e-2)).max())
                if not err <= 6e-2:
                    print(f"FAIL {spec} N={n} {name}: max rel error {err:.3g}")
                    ok = False
                calls[name] = call
            del ref
            times, _ = rs.time_interleaved(calls, 100, 3, before=flush.zero_)
            print(f"| {spec} | N={n} | " + " | ".join(f"{k} {v:.4f} ms" for k, v in times.items()) + " |", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
