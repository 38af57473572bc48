"""Host program for samples/row_bias_scale.py, written as for cuTile: a 2-D grid, a float
scalar, a transposed (non-contiguous) input.

    python -m tile2cu run samples/host/row_bias_scale.py
"""
import os
import sys

import torch

import cuda.tile as ct

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from row_bias_scale import row_bias_scale  # noqa: E402

TM, TN = 32, 128
for transposed in (False, True):
    m, n = 333, 517
    x = torch.randn(n, m, device="cuda").t() if transposed else torch.randn(m, n, device="cuda")
    bias = torch.randn(n, device="cuda")
    y = torch.full((m, n), float("nan"), device="cuda")
    scale = 0.37
    grid = (ct.cdiv(m, TM), ct.cdiv(n, TN))
    ct.launch(torch.cuda.current_stream(), grid, row_bias_scale, (x, bias, y, scale, TM, TN))
    torch.cuda.synchronize()
    ref = x.double() * torch.tensor(scale, dtype=torch.float32).double() + bias.double()
    err = (y.double() - ref).abs().max().item()
    assert err < 1e-5, f"row_bias_scale transposed={transposed}: max error {err}"
    print(f"row_bias_scale {m}x{n} transposed={transposed}: ok (max error {err:.2e})")
