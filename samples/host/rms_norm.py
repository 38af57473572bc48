"""Host program for samples/rms_norm.py, written as for cuTile: a runtime float scalar (eps).

    python -m tile2cu run samples/host/rms_norm.py
"""
import os
import sys

import torch

import cuda.tile as ct

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from rms_norm import rms_norm  # noqa: E402

eps = 1e-6
for dtype, rows, cols, tn in ((torch.float32, 64, 300, 512), (torch.bfloat16, 9, 4099, 8192)):
    x = torch.randn(rows, cols, device="cuda").to(dtype)
    w = torch.randn(cols, device="cuda").to(dtype)
    y = torch.full_like(x, float("nan"))
    ct.launch(torch.cuda.current_stream(), (rows,), rms_norm, (x, w, y, eps, tn))
    torch.cuda.synchronize()
    xd = x.double()
    ref = xd * torch.rsqrt(xd.pow(2).mean(dim=1, keepdim=True) + eps) * w.double()
    err = ((y.double() - ref).abs() / (1 + ref.abs())).max().item()
    tol = 1e-5 if dtype == torch.float32 else 1e-2
    assert err < tol, f"rms_norm {dtype}: relative error {err}"
    print(f"rms_norm {str(dtype):15} {rows}x{cols}: ok (error {err:.2e})")
