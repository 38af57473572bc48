"""Host program for samples/fused_exp_mul_add.py, written as for cuTile: a persistent grid of a
few blocks per SM.

    python -m tile2cu run samples/host/fused_exp_mul_add.py
"""
import os
import sys

import torch

import cuda.tile as ct

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from fused_exp_mul_add import fused_exp_mul_add  # noqa: E402

sms = torch.cuda.get_device_properties(0).multi_processor_count
for dtype, tile in ((torch.bfloat16, 2048), (torch.float16, 1024)):
    n = 1_000_003
    a, b, c = (torch.randn(n, device="cuda").to(dtype) for _ in range(3))
    y = torch.full_like(a, float("nan"))
    ct.launch(torch.cuda.current_stream(), (sms * 4,), fused_exp_mul_add, (a, b, c, y, tile))
    torch.cuda.synchronize()
    ref = torch.exp(a.double()) * b.double() + c.double()
    err = ((y.double() - ref).abs() / (1 + ref.abs())).max().item()
    tol = 1e-2 if dtype == torch.bfloat16 else 2e-3
    assert err < tol, f"fused_exp_mul_add {dtype}: error {err}"
    print(f"fused_exp_mul_add {str(dtype):15} n={n}: ok (error {err:.2e})")
