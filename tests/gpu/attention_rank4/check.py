"""GPU check of the attention main loop on rank-4 arrays (batch, heads, seq, D): the TMA path's
4-D tensor maps (box at fixed batch and head) and, with K and V rows not 16-byte aligned, the
cp.async fallback. samples/attention.py takes (batch * heads, seq, D), so this kernel lives here.

    build/tile2cu tests/gpu/attention_rank4/attention_bhsd.py -o GEN/attention_bhsd.cu   # here
    python3 tests/gpu/attention_rank4/check.py --gen GEN                                   # on the GPU
"""
import argparse
import ctypes
import math
import subprocess
import sys

import torch

gen = argparse.ArgumentParser()
gen.add_argument("--gen", required=True)
gen = gen.parse_args().gen
r = subprocess.run(["nvcc", "-std=c++17", "-O3", "-shared", "-Xcompiler", "-fPIC", "-Iruntime", f"-I{gen}",
                    "-gencode=arch=compute_90a,code=sm_90a", f"{gen}/attention_bhsd.cu", "-o", f"{gen}/attention_bhsd.so"], capture_output=True, text=True)
if r.returncode: sys.exit(r.stderr[-2000:])
lib = ctypes.CDLL(f"{gen}/attention_bhsd.so")
fn = lib.tile2cu_attention_bhsd_bf16_d128
fn.restype = ctypes.c_int
def run(q, k, v, o, scale):
    b, h, s, d = q.shape
    args = [ctypes.c_void_p(torch.cuda.current_stream().cuda_stream), ctypes.c_uint((s + 127) // 128), ctypes.c_uint(h), ctypes.c_uint(b)]
    for t in (q, k, v, o):
        args += [ctypes.c_void_p(t.data_ptr())] + [ctypes.c_int64(x) for x in t.shape] + [ctypes.c_int64(x) for x in t.stride()]
    args.append(ctypes.c_float(scale))
    assert fn(*args) == 0
fails = 0
for (b, h, s), pad in [((2, 3, 200), 0), ((3, 2, 129), 0), ((2, 2, 300), 4), ((1, 3, 64), 0)]:
    d = 128
    q = torch.randn(b, h, s, d, device="cuda").bfloat16()
    k, v = (torch.randn(b, h, s, d + pad, device="cuda").bfloat16()[..., :d] for _ in range(2))
    o = torch.full((b, h, s, d), float("nan"), device="cuda").bfloat16()
    scale = 1 / math.sqrt(d)
    run(q, k, v, o, scale)
    torch.cuda.synchronize()
    sc = (q.double() @ k.double().transpose(-1, -2)) * scale
    sc = sc.masked_fill(torch.ones(s, s, dtype=torch.bool, device="cuda").triu(1), float("-inf"))
    ref = torch.softmax(sc, -1) @ v.double()
    err = (o.double() - ref).abs().max().item()
    ok = err <= 2e-2 and not torch.isnan(o).any()
    fails += not ok
    print(f"rank-4 attention b{b} h{h} s{s} d{d} K/V row pad {pad}: max error {err:.3g} {'PASS' if ok else 'FAIL'}")
sys.exit(1 if fails else 0)
