"""Host program for samples/vector_add.py, written as for cuTile: c = a + b in several dtypes.

    python -m tile2cu run samples/host/vector_add.py
"""
import os
import sys

import torch

import cuda.tile as ct

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from vector_add import vector_add  # noqa: E402


def check(dtype, n, tile):
    if dtype.is_floating_point:
        a = torch.randn(n, device="cuda").to(dtype)
        b = torch.randn(n, device="cuda").to(dtype)
    else:
        a = torch.randint(-1000, 1000, (n,), device="cuda", dtype=dtype)
        b = torch.randint(-1000, 1000, (n,), device="cuda", dtype=dtype)
    c = torch.full_like(a, 7)   # poisoned: every element must be written
    ct.launch(torch.cuda.current_stream(), (ct.cdiv(n, tile),), vector_add, (a, b, c, tile))
    torch.cuda.synchronize()
    assert torch.equal(c, a + b), f"vector_add {dtype} n={n} tile={tile}: mismatch"
    print(f"vector_add {str(dtype):15} n={n:>8} TILE={tile}: ok")


for dtype, tile in ((torch.float32, 1024), (torch.float16, 2048), (torch.int32, 256)):
    for n in (1, 1000, 123457):
        check(dtype, n, tile)
