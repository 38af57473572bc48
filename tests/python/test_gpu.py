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


def test_tune_times_on_the_stream_and_picks_a_working_config(torch, cache_dir):
    import kernels
    import tile2cu.cutile as ct
    n = 1 << 20
    x = torch.randn(n, device="cuda")
    with ct.compiler_timeout(300):
        result = ct.tune.exhaustive_search(
            [256, 1024, 4096], torch.cuda.current_stream(), lambda t: (ct.cdiv(n, t),),
            kernels.copy, lambda t: (x, torch.empty_like(x), t), quiet=True)
    assert len(result.successes) == 3 and not result.failures
    assert all(m.mean_us > 0 and m.num_samples >= 5 for m in result.successes)
    y = torch.full_like(x, float("nan"))
    ct.launch(torch.cuda.current_stream(), (ct.cdiv(n, result.best.config),), kernels.copy,
              (x, y, result.best.config))
    torch.cuda.synchronize()
    assert torch.equal(x, y)


def test_tune_skips_a_build_that_fails_with_list_arguments(torch, cache_dir):
    import kernels
    import tile2cu.cutile as ct
    xs = [torch.randn(n, device="cuda") for n in (100, 300)]
    ys = [torch.empty_like(x) for x in xs]
    result = ct.tune.exhaustive_search(
        ["bad", 128], torch.cuda.current_stream(), lambda c: (3,),
        lambda c: kernels.bad_shapes if c == "bad" else kernels.grouped_scale,
        lambda c: (xs[0], ys[0], 64) if c == "bad" else (xs, ys, 2.0, c), quiet=True)
    assert [m.config for m in result.successes] == [128]
    assert result.failures[0][:2] == ("bad", ct.TileTypeError)
    torch.cuda.synchronize()
    assert all(torch.equal(y, 2 * x) for x, y in zip(xs, ys))


def test_replace_hints_kernel_launches_by_its_name(torch, cache_dir):
    import kernels
    import tile2cu.cutile as ct
    x, y = torch.randn(1000, device="cuda"), torch.randn(1000, device="cuda")
    ref = x * 0.5 + y
    ct.launch(torch.cuda.current_stream(), (ct.cdiv(1000, 256),), kernels.axpy4, (x, y, 0.5, 256))
    torch.cuda.synchronize()
    assert torch.allclose(y, ref)
    assert next(iter(kernels.axpy4._specs.values())).signature.startswith("x=float32[?]")


@pytest.mark.parametrize("dtype", ["float8_e4m3fn", "float8_e5m2", "float16"])
def test_float8_arrays(torch, cache_dir, dtype):
    import kernels
    import tile2cu.cutile as ct
    x = torch.randn(1000, device="cuda").to(getattr(torch, dtype))
    s = torch.tensor([3.0], device="cuda")
    y = torch.full((1000,), float("nan"), device="cuda")
    ct.launch(torch.cuda.current_stream(), (ct.cdiv(1000, 128),), kernels.scale_by_cell_1d, (x, y, s, 128))
    torch.cuda.synchronize()
    assert torch.equal(y, x.float() * 3.0)


# 0-d arrays: the runtime takes rank-0 Array and ArrayView (unit test ZeroDArrays.*); passed on
# an H200 in session 17.
@pytest.mark.parametrize("dtype", ["float8_e4m3fn", "float16"])
def test_float8_and_zero_d_arrays(torch, cache_dir, dtype):
    import kernels
    import tile2cu.cutile as ct
    x = torch.randn(1000, device="cuda").to(getattr(torch, dtype))
    s = torch.tensor(3.0, device="cuda")            # a 0-d array
    y = torch.full((1000,), float("nan"), device="cuda")
    ct.launch(torch.cuda.current_stream(), (ct.cdiv(1000, 128),), kernels.scale_by_cell, (x, y, s, 128))
    torch.cuda.synchronize()
    assert torch.equal(y, x.float() * 3.0)
