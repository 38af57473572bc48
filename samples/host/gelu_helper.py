"""Host program for samples/gelu_helper.py, written as for cuTile, with CuPy arrays where CuPy is
installed (read through __cuda_array_interface__) and torch otherwise.

    python -m tile2cu run samples/host/gelu_helper.py
"""
import math
import os
import sys

import torch

import cuda.tile as ct

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from gelu_helper import gelu  # noqa: E402


def reference(x):
    x = x.double()
    return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))


try:
    import cupy
except ImportError:
    cupy = None

n, tile = 77_777, 1024
x = torch.randn(n, device="cuda")
y = torch.full_like(x, float("nan"))
if cupy is not None:
    xc, yc = cupy.asarray(x), cupy.asarray(y)   # share the memory
    ct.launch(cupy.cuda.get_current_stream(), (ct.cdiv(n, tile),), gelu, (xc, yc, tile))
    cupy.cuda.get_current_stream().synchronize()
    which = "CuPy arrays, CuPy stream"
else:
    ct.launch(torch.cuda.current_stream(), (ct.cdiv(n, tile),), gelu, (x, y, tile))
    torch.cuda.synchronize()
    which = "torch tensors"
err = (y.double() - reference(x)).abs().max().item()
assert err < 1e-5, f"gelu: max error {err}"
print(f"gelu float32 n={n} ({which}): ok (max error {err:.2e})")

# A DLPack-only view of the same data (no torch fast path, no __cuda_array_interface__).
class DLPackOnly:
    def __init__(self, t):
        self.t = t

    def __dlpack__(self, stream=None):
        return self.t.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.t.__dlpack_device__()


y.fill_(float("nan"))
ct.launch(torch.cuda.current_stream(), (ct.cdiv(n, tile),), gelu, (DLPackOnly(x), DLPackOnly(y), tile))
torch.cuda.synchronize()
err = (y.double() - reference(x)).abs().max().item()
assert err < 1e-5, f"gelu via DLPack: max error {err}"
print(f"gelu float32 n={n} (DLPack objects): ok")
