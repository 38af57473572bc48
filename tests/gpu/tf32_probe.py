# Which fp32 -> tf32 conversion does cuBLAS's TF32 GEMM match on this card: round to nearest
# (cvt.rna), truncation (the tensor core ignoring the low 13 bits), or none (full fp32)?
import torch
torch.manual_seed(0)
torch.backends.cuda.matmul.allow_tf32 = True
for (m, k, n) in [(512, 768, 512), (1024, 4096, 1024)]:
    A = torch.randn(m, k, device="cuda"); B = torch.randn(k, n, device="cuda")
    C = (A @ B).double()
    def rna(x): i = x.view(torch.int32); return ((i + 0x1000) & ~0x1fff).view(torch.float32)
    def rz(x): i = x.view(torch.int32); return (i & ~0x1fff).view(torch.float32)
    for name, f in [("rna", rna), ("rz", rz), ("fp32", lambda x: x)]:
        R = f(A).double() @ f(B).double()
        d = (R - C).abs()
        print(f"{m}x{k}x{n} cuBLAS tf32 vs exact product of {name:4} inputs: max {d.max().item():.3e} mean {d.mean().item():.3e}")
