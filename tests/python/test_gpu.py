"""On a GPU (skipped without one): launches through torch tensors match torch, across streams,
inside CUDA graph capture, with non-contiguous inputs; argument errors name the argument."""

import pytest

from conftest import gpu_available

pytestmark = pytest.mark.skipif(not gpu_available(), reason="no CUDA GPU (or no torch)")


@pytest.fixture
def torch():
    import torch
    return torch


def test_axpy_matches_torch(torch, cache_dir):
    import kernels
    import tile2cu.cutile as ct
    for n in (1, 1000, 4099):
        x = torch.randn(n, device="cuda")
        y = torch.randn(n, device="cuda")
        ref = x.double() * torch.tensor(0.25).float().double() + y.double()
        ct.launch(torch.cuda.current_stream(), (ct.cdiv(n, 256),), kernels.axpy, (x, y, 0.25, 256))
        torch.cuda.synchronize()
        assert torch.allclose(y.double(), ref, rtol=1e-6, atol=1e-6)


def test_tuple_arguments(torch, cache_dir):
    import kernels
    import tile2cu.cutile as ct
    for n in (1, 1000, 4099):
        x = torch.randn(n, device="cuda")
        y = torch.full((n,), float("nan"), device="cuda")
        ct.launch(torch.cuda.current_stream(), (ct.cdiv(n, 256),), kernels.scaled_pair,
                  ((x, (y, 3)), (0.5, 1.25), 256))
        torch.cuda.synchronize()
        ref = (x * 0.5 + 1.25) + 3.0      # float32 arithmetic in the kernel's order
        assert torch.equal(y, ref)


def test_strided_and_half(torch, cache_dir):
    import kernels
    import tile2cu.cutile as ct
    base = torch.randn(3000, device="cuda").half()
    x = base[::3]                      # stride 3: not contiguous
    y = torch.full((1000,), float("nan"), device="cuda").half()
    ct.launch(torch.cuda.current_stream(), (ct.cdiv(1000, 128),), kernels.copy, (x, y, 128))
    torch.cuda.synchronize()
    assert torch.equal(y, x)
    assert len(kernels.copy._specs) >= 1


def test_streams_and_graph_capture(torch, cache_dir):
    import kernels
    import tile2cu.cutile as ct
    n = 1 << 16
    xs = [torch.randn(n, device="cuda") for _ in range(2)]
    ys = [torch.full_like(x, float("nan")) for x in xs]
    streams = [torch.cuda.Stream() for _ in range(2)]
    for s in streams:
        s.wait_stream(torch.cuda.current_stream())
    for x, y, s in zip(xs, ys, streams):
        ct.launch(s, (ct.cdiv(n, 1024),), kernels.copy, (x, y, 1024))
    torch.cuda.synchronize()
    assert all(torch.equal(x, y) for x, y in zip(xs, ys))

    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s), torch.cuda.graph(g, stream=s):
        ct.launch(s, (ct.cdiv(n, 1024),), kernels.copy, (xs[0], ys[0], 1024))
    xs[0].copy_(torch.randn(n, device="cuda"))
    ys[0].fill_(float("nan"))
    g.replay()
    torch.cuda.synchronize()
    assert torch.equal(xs[0], ys[0])


def test_host_tensor_is_rejected(torch):
    import kernels
    import tile2cu.cutile as ct
    with pytest.raises(TypeError, match=r"Invalid kernel argument #1 \(x\).*not on a CUDA device"):
        ct.launch(0, (1,), kernels.copy, (torch.zeros(8), torch.zeros(8, device="cuda"), 8))
