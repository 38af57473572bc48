"""Host program for samples/batched_affine.py, written as for cuTile: a 3-D grid, rank-3 arrays,
mixed dtypes (bf16 data, fp32 beta).

    python -m tile2cu run samples/host/batched_affine.py
"""
import os
import sys

import torch

import cuda.tile as ct

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from batched_affine import batched_affine  # noqa: E402

for dtype, tm, tn in ((torch.float32, 16, 128), (torch.bfloat16, 32, 64)):
    b, m, n = 3, 45, 200
    x = torch.randn(b, m, n, device="cuda").to(dtype)
    gamma = torch.randn(n, device="cuda").to(dtype)
    beta = torch.randn(b, m, device="cuda")
    y = torch.full_like(x, float("nan"))
    ct.launch(torch.cuda.current_stream(), (b, ct.cdiv(m, tm), ct.cdiv(n, tn)), batched_affine,
              (x, gamma, beta, y, tm, tn))
    torch.cuda.synchronize()
    ref = x.double() * gamma.double() + beta.double()[:, :, None]
    err = ((y.double() - ref).abs() / (1 + ref.abs())).max().item()
    tol = 1e-6 if dtype == torch.float32 else 1e-2
    assert err < tol, f"batched_affine {dtype}: error {err}"
    print(f"batched_affine {str(dtype):15} {b}x{m}x{n}: ok (error {err:.2e})")
