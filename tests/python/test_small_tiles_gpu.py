"""On a GPU (skipped without one): kernels with small tiles run several blocks per CTA (issue 30)
and keep cuTile's per-block semantics: ragged grids whose last CTA is part empty, ct.bid and
ct.num_blocks along x and y, early returns, tile atomics, reading back one's own writes. The
CPU side (which kernels take the path, what the code says) is tests/unit/small_tiles_test.cpp."""

import pytest

from conftest import gpu_available

pytestmark = pytest.mark.skipif(not gpu_available(), reason="no CUDA GPU (or no torch)")


@pytest.fixture
def torch():
    import torch
    return torch


def launch(torch, grid, kernel, args):
    import tile2cu.cutile as ct
    ct.launch(torch.cuda.current_stream(), grid, kernel, args)
    torch.cuda.synchronize()


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("tile", [16, 32, 64])
def test_vector_add_ragged(torch, cache_dir, dtype, tile):
    import small_tile_kernels as k
    # Grids that fill no whole number of CTAs, and a ragged last tile.
    for n in (tile * 1000 + 5, tile * 64 * 3, 7):
        a = torch.randn(n, device="cuda").to(getattr(torch, dtype))
        b = torch.randn(n, device="cuda").to(getattr(torch, dtype))
        out = torch.full_like(a, float("nan"))
        launch(torch, ((n + tile - 1) // tile,), k.vector_add, (a, b, out, tile))
        assert torch.equal(out, a + b), (n, tile, dtype)


def test_grid_queries(torch, cache_dir):
    import small_tile_kernels as k
    for gx, gy in ((1, 1), (1000, 3), (64, 2), (65, 1)):
        out = torch.full((gx * gy * 4,), -1, dtype=torch.int32, device="cuda")
        launch(torch, (gx, gy), k.grid_queries, (out,))
        bx = torch.arange(gx, device="cuda").repeat(gy)
        by = torch.arange(gy, device="cuda").repeat_interleave(gx)
        ref = torch.stack([bx, torch.full_like(bx, gx), by, torch.full_like(bx, gy)], 1).int()
        assert torch.equal(out, ref.reshape(-1)), (gx, gy)


def test_early_return_and_tile_atomics(torch, cache_dir):
    import small_tile_kernels as k
    blocks = 1001
    x = torch.randint(-1000, 1000, (blocks * 8,), dtype=torch.int32, device="cuda")
    y = torch.full_like(x, -7)
    counts = torch.zeros(8, dtype=torch.int32, device="cuda")
    launch(torch, (blocks,), k.skip_every_third, (x, y, counts))
    kept = (torch.arange(blocks, device="cuda") % 3 != 2).repeat_interleave(8)
    assert torch.equal(y[kept], x[kept])
    assert bool((y[~kept] == -7).all())
    assert torch.equal(counts, torch.full_like(counts, int(kept.sum()) // 8))


def test_write_then_read_back(torch, cache_dir):
    import small_tile_kernels as k
    blocks = 777
    x = torch.randn(blocks * 32, device="cuda")
    y = torch.full_like(x, float("nan"))
    z = torch.full((blocks * 16,), float("nan"), device="cuda")
    launch(torch, (blocks,), k.write_then_read_back, (x, y, z))
    assert torch.equal(y, x * 2)
    assert torch.equal(z, (x * 2).view(blocks, 2, 16)[:, 1].reshape(-1) + 1)


def test_block_collectives(torch, cache_dir):
    import small_tile_kernels as k
    blocks = 301   # not a whole number of CTAs
    x = torch.randn(blocks * 4, 8, device="cuda")
    sums = torch.full((blocks * 4,), float("nan"), device="cuda")
    cums = torch.full_like(x, float("nan"))
    args = torch.full((blocks * 4,), -1, dtype=torch.int32, device="cuda")
    perm = torch.full((8, blocks * 4), float("nan"), device="cuda")
    totals = torch.full((blocks * 4,), float("nan"), device="cuda")
    launch(torch, (blocks,), k.block_collectives, (x, sums, cums, args, perm, totals))
    xd = x.double()
    assert torch.allclose(sums.double(), xd.sum(1), rtol=1e-5, atol=1e-5)
    assert torch.allclose(cums.double(), xd.cumsum(1), rtol=1e-5, atol=1e-5)
    assert torch.equal(args.long(), x.argmax(1))
    assert torch.equal(perm, x.t())
    ref_totals = xd.view(blocks, 32).sum(1).repeat_interleave(4)
    assert torch.allclose(totals.double(), ref_totals, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("n", [64, 256])
def test_row_kernels(torch, cache_dir, n):
    import small_tile_kernels as k
    rows = 1000
    x = torch.randn(rows, n, device="cuda").bfloat16()
    w = torch.randn(n, device="cuda").bfloat16()
    y = torch.full_like(x, float("nan"))
    launch(torch, (rows,), k.softmax_rows, (x, y, n))
    ref = torch.softmax(x.double(), 1)
    assert torch.allclose(y.double(), ref, rtol=2e-2, atol=1e-3)
    y.fill_(float("nan"))
    launch(torch, (rows,), k.rms_norm_rows, (x, w, y, 1e-6, n))
    xd = x.double()
    ref = xd * torch.rsqrt((xd * xd).mean(1, keepdim=True) + 1e-6) * w.double()
    assert torch.allclose(y.double(), ref, rtol=2e-2, atol=2e-2)
