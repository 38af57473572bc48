"""GPU check of issue 24: fp8 batched matmul on sm_90a agrees with cuBLASLt's fp8 GEMM.

Hopper's fp8 wgmma sums its products with less precision than fp32; torch._scaled_mm (cuBLASLt)
and real cuTile run on it, and cuTile's samples/BatchMatMul.py compares the two at
torch.testing.assert_close's float32 tolerance (atol 1e-5, rtol 1.3e-6). tile2cu's fp8 mma runs
on wgmma m64n64k32 on sm_90a (runtime/tile2cu/wgmma_fp8.cuh), on mma.sync m16n8k32 elsewhere.

Run from the repository root, on an sm_90 device:
    PYTHONPATH=python python -m tile2cu run tests/gpu/fp8_gemm_check.py
(`python -m tile2cu run` makes `import cuda.tile` resolve to tile2cu's stand-in.)

Prints one line per case: max |difference| to cuBLAS, to the exact (float64) product, whether
assert_close(.., cuBLAS) passes, and times (median of 20 launches) of tile2cu and cuBLAS
(cuBLAS: one torch._scaled_mm per batch entry, B already column-major). e5m2 is reported
against the exact product only: cuBLASLt has no e5m2 x e5m2 GEMM.
Then f16 / bf16 regression checks of samples/matmul.py's recognised GEMM loop against
torch.matmul. Exit status 1 when a check fails.
"""
import os
import sys

import torch

import cuda.tile as ct

ConstInt = ct.Constant[int]
ZERO = ct.PaddingMode.ZERO
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# The shape of cuTile's samples/BatchMatMul.py kernel (written here, not copied): one (tm x tn)
# tile of one batch entry per block, the k-loop over (1, tm, tk) and (1, tk, tn) tiles.
@ct.kernel
def batch_matmul(A, B, C, tm: ConstInt, tn: ConstInt, tk: ConstInt):
    batch, row, col = ct.bid(0), ct.bid(1), ct.bid(2)
    acc = ct.full((tm, tn), 0.0, dtype=ct.float32)
    for k in range(ct.cdiv(A.shape[2], tk)):
        a = ct.reshape(ct.load(A, index=(batch, row, k), shape=(1, tm, tk), padding_mode=ZERO), (tm, tk))
        b = ct.reshape(ct.load(B, index=(batch, k, col), shape=(1, tk, tn), padding_mode=ZERO), (tk, tn))
        acc = ct.mma(a, b, acc=acc)
    ct.store(C, index=(batch, row, col), tile=ct.reshape(ct.astype(acc, C.dtype), (1, tm, tn)))


def launch_bmm(a, b, c, tm=128, tn=256, tk=128):
    grid = (a.shape[0], -(-a.shape[1] // tm), -(-b.shape[2] // tn))
    ct.launch(torch.cuda.current_stream(), grid, batch_matmul, (a, b, c, tm, tn, tk))


def pad16(t, dim):
    """t with zeros appended along `dim` up to a multiple of 16 (cuBLASLt's fp8 GEMM needs it; zero
    rows and columns change no sum)."""
    extra = -t.shape[dim] % 16
    if extra == 0:
        return t
    shape = list(t.shape)
    shape[dim] = extra
    return torch.cat([t, torch.zeros(shape, device=t.device, dtype=t.dtype)], dim)


def cublas_bmm(a, b):
    """As the sample's reference: one torch._scaled_mm per batch entry, B column-major."""
    one = torch.tensor(1.0, device="cuda")
    m, n = a.shape[1], b.shape[2]
    a, b = pad16(a, 1), pad16(b, 2)
    out = torch.empty((a.shape[0], a.shape[1], b.shape[2]), device="cuda", dtype=torch.float32)
    for i in range(a.shape[0]):
        b_col = b[i].transpose(-2, -1).contiguous().transpose(-2, -1)
        out[i] = torch._scaled_mm(a[i].contiguous(), b_col, scale_a=one, scale_b=one, out_dtype=torch.float32)
    return out[:, :m, :n]


def cublas_bmm_timed(a, b):
    """The GEMMs of cublas_bmm alone (B's column-major copies and the padding made beforehand)."""
    one = torch.tensor(1.0, device="cuda")
    a, b = pad16(a, 1), pad16(b, 2)
    a_rows = [a[i].contiguous() for i in range(a.shape[0])]
    b_cols = [b[i].transpose(-2, -1).contiguous().transpose(-2, -1) for i in range(b.shape[0])]
    return lambda: [torch._scaled_mm(x, y, scale_a=one, scale_b=one, out_dtype=torch.float32)
                    for x, y in zip(a_rows, b_cols)]


def median_ms(fn, reps=20):
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return sorted(times)[len(times) // 2]


def fp8_cases():
    # (batch, M, K, N, tiles): the sample's size, ragged M / N / K (K a multiple of 16, as
    # torch._scaled_mm requires; M and N are padded for it), the smallest wgmma tile, and a larger
    # one for timing.
    return [(4, 512, 256, 1024, (128, 256, 128)),
            (3, 200, 272, 336, (128, 256, 128)),
            (2, 130, 1040, 96, (128, 256, 128)),
            (2, 190, 208, 300, (64, 64, 64)),
            (8, 2048, 2048, 2048, (128, 256, 128))]


def check_fp8(rows):
    ok = True
    torch.manual_seed(0)
    for batch, m, k, n, (tm, tn, tk) in fp8_cases():
        a = torch.randn(batch, m, k, device="cuda").to(torch.float8_e4m3fn)
        b = torch.randn(batch, k, n, device="cuda").to(torch.float8_e4m3fn)
        c = torch.empty(batch, m, n, device="cuda", dtype=torch.float32)
        launch_bmm(a, b, c, tm, tn, tk)
        ref = cublas_bmm(a, b)
        exact = a.double() @ b.double()
        try:
            torch.testing.assert_close(c, ref)
            passed = True
        except AssertionError:
            passed = False
        ok &= passed
        t_ours = median_ms(lambda: launch_bmm(a, b, c, tm, tn, tk))
        t_cublas = median_ms(cublas_bmm_timed(a, b))
        rows.append((f"e4m3 bmm {batch}x{m}x{k}x{n} tile {tm}x{tn}x{tk}",
                     f"{(c - ref).abs().max().item():.2e}", f"{(c.double() - exact).abs().max().item():.2e}",
                     "pass" if passed else "FAIL", f"{t_ours:.3f}", f"{t_cublas:.3f}"))
    # e5m2 x e5m2 has no cuBLASLt form: reported against the exact product only (its error
    # relative to sum |a| |b| shows the accumulation's precision), no pass / fail.
    a = torch.randn(2, 256, 512, device="cuda").to(torch.float8_e5m2)
    b = torch.randn(2, 512, 256, device="cuda").to(torch.float8_e5m2)
    c = torch.empty(2, 256, 256, device="cuda", dtype=torch.float32)
    launch_bmm(a, b, c)
    exact = a.double() @ b.double()
    relative = ((c.double() - exact).abs() / (a.double().abs() @ b.double().abs())).max().item()
    rows.append(("e5m2 bmm 2x256x512x256 vs exact", "-", f"{(c.double() - exact).abs().max().item():.2e}",
                 f"info: {relative:.1e} of sum|ab|", "-", "-"))
    return ok


def check_matmul_regression(rows):
    """samples/matmul.py (the recognised GEMM loop, untouched by issue 24) against torch.matmul."""
    sys.path.insert(0, os.path.join(REPO, "samples"))
    import matmul as sample
    ok = True
    torch.manual_seed(1)
    for dtype in (torch.float16, torch.bfloat16):
        for m, k, n in ((1000, 1496, 1000), (4096, 4096, 4096)):
            a = torch.randn(m, k, device="cuda", dtype=dtype)
            b = torch.randn(k, n, device="cuda", dtype=dtype)
            c = torch.empty(m, n, device="cuda", dtype=dtype)
            bm, bn, bk = 128, 256, 64
            grid = (-(-m // bm) * -(-n // bn),)
            run = lambda: ct.launch(torch.cuda.current_stream(), grid, sample.matmul,  # noqa: E731
                                    (a, b, c, bm, bn, bk, 8, False))
            run()
            ref = torch.matmul(a, b)
            exact = a.float() @ b.float()
            err = (c.float() - exact).abs().max().item()
            passed = err <= 2 * (ref.float() - exact).abs().max().item() + 1e-2
            ok &= passed
            rows.append((f"{str(dtype)[6:]} matmul {m}x{k}x{n}", f"{(c.float() - ref.float()).abs().max().item():.2e}",
                         f"{err:.2e}", "pass" if passed else "FAIL", f"{median_ms(run):.3f}",
                         f"{median_ms(lambda: torch.matmul(a, b)):.3f}"))
    return ok


def main():
    print("device:", torch.cuda.get_device_name(), "capability", torch.cuda.get_device_capability())
    rows = []
    ok = check_fp8(rows) if torch.cuda.get_device_capability() >= (8, 9) else True
    ok &= check_matmul_regression(rows)
    head = ("case", "max|d| vs cuBLAS", "max|d| vs exact", "check", "tile2cu ms", "cuBLAS ms")
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    for r in [head] + rows:
        print("  ".join(str(x).ljust(w) for x, w in zip(r, widths)))
    print("all passed" if ok else "FAILURES")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
