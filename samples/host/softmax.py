"""Host program for samples/softmax.py, written as for cuTile: row softmax in fp16 and bf16.

    python -m tile2cu run samples/host/softmax.py
"""
import os
import sys

import torch

import cuda.tile as ct

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from softmax import softmax  # noqa: E402


def next_pow2(n):
    return 1 << (n - 1).bit_length()


for dtype, rows, cols in ((torch.float16, 37, 1000), (torch.bfloat16, 5, 3001)):
    x = (torch.randn(rows, cols, device="cuda") * 4).to(dtype)
    y = torch.full_like(x, float("nan"))
    ct.launch(torch.cuda.current_stream(), (rows,), softmax, (x, y, next_pow2(cols)))
    torch.cuda.synchronize()
    ref = torch.softmax(x.double(), dim=1)
    err = (y.double() - ref).abs().max().item()
    tol = 2e-3 if dtype == torch.float16 else 1e-2
    assert err < tol, f"softmax {dtype}: max error {err}"
    print(f"softmax {str(dtype):15} {rows}x{cols}: ok (max error {err:.2e})")
