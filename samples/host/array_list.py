"""Host program for samples/array_list.py, written as for cuTile: lists of tensors of different
lengths as kernel arguments (out[g] = alpha * xs[g] + ys[g]), then Array.slice's ragged segments
(samples/ragged_segments.py) on the same launcher.

    python -m tile2cu run samples/host/array_list.py
"""
import os
import sys

import torch

import cuda.tile as ct

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from array_list import grouped_axpy  # noqa: E402
from ragged_segments import segment_sum  # noqa: E402

for dtype, tile in ((torch.float32, 1024), (torch.bfloat16, 2048)):
    lens = (1, tile + 3, 5 * tile - 1, 0, 77)
    xs = [torch.randn(n, device="cuda").to(dtype) for n in lens]
    ys = [torch.randn(n, device="cuda").to(dtype) for n in lens]
    outs = [torch.full((n,), float("nan"), device="cuda").to(dtype) for n in lens]
    alpha = 0.75
    ct.launch(torch.cuda.current_stream(), (ct.cdiv(max(lens), tile),), grouped_axpy,
              (xs, ys, outs, alpha, tile))
    torch.cuda.synchronize()
    for g, (x, y, out) in enumerate(zip(xs, ys, outs)):
        ref = alpha * x.double() + y.double()
        err = ((out.double() - ref).abs() / (1 + ref.abs())).max().item() if len(out) else 0.0
        tol = 1e-6 if dtype == torch.float32 else 1e-2
        assert err < tol, f"grouped_axpy {dtype} group {g} (n={len(x)}): error {err}"
    print(f"grouped_axpy {str(dtype):15} groups {lens}: ok")

offsets = torch.tensor([2, 40, 40, 41, 200], dtype=torch.int32, device="cuda")
x = torch.randn(203, 150, device="cuda")
sums = torch.full((4, 150), float("nan"), device="cuda")
ct.launch(torch.cuda.current_stream(), (4, ct.cdiv(150, 64)), segment_sum, (x, offsets, sums, 32, 64))
torch.cuda.synchronize()
bounds = offsets.tolist()
ref = torch.stack([x[a:b].double().sum(0) for a, b in zip(bounds, bounds[1:])])
err = (sums.double() - ref).abs().max().item()
assert err < 1e-3, f"segment_sum: error {err}"
print(f"segment_sum float32 segments {bounds}: ok (error {err:.2e})")
