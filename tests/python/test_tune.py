"""`cuda.tile.tune.exhaustive_search` on the CPU: the search's choices with a fake timer (cuTile's
sampling rules), failures skipped, hints and kernel factories, the configurations' kernels built
at once, a build that fails skipped; and `ct.compiler_timeout`'s scope. The timing itself (CUDA
events on the stream) is in test_gpu.py."""

import threading

import pytest

import kernels
import tile2cu.cutile as ct
from conftest import nvcc_available
from tile2cu import _build, _kernel, _nvrtc_build
from tile2cu.tune import _tune, _tune_utils, exhaustive_search


@pytest.fixture
def fake_timer(monkeypatch):
    """Replaces the launch timer: `times[cfg]` is a list of samples (the last one repeats) or
    an exception to raise. Returns the list of (cfg, kernel) timed."""
    calls = []

    def install(times):
        seen = {}

        def benchmark(stream, grid, kernel, args):
            cfg = args[-1]
            calls.append((cfg, kernel))
            t = times[cfg]
            if isinstance(t, Exception):
                raise t
            n = seen.get(cfg, 0)
            seen[cfg] = n + 1
            return t[min(n, len(t) - 1)]
        monkeypatch.setattr(_tune, "_benchmark", benchmark)
        monkeypatch.setattr(_kernel, "prepare", lambda k, args: None)   # no builds here
        return calls
    return install


def search(space, **kw):
    return exhaustive_search(space, 0, lambda cfg: (1,), kernels.copy,
                             lambda cfg: (None, None, cfg), quiet=True, **kw)


def test_picks_the_fastest(fake_timer):
    fake_timer({64: [5.0], 128: [1.0], 256: [3.0]})
    result = search([64, 128, 256])
    assert result.best.config == 128 and result.best.mean_us == 1.0
    assert [m.config for m in sorted(result.successes, key=lambda m: m.mean_us)] == [128, 256, 64]
    assert result.failures == ()
    assert str(result).startswith("3 succeeded, 0 failed\n* 128")


def test_slow_configurations_stop_early(fake_timer, monkeypatch):
    for name, value in (("_TOP_K", 2), ("_WARM_UP_REPEATS", 1), ("_MIN_REPEATS", 2),
                        ("_BATCH_REPEATS", 1)):
        monkeypatch.setattr(_tune, name, value)
    # 1, 2 converge at once (constant samples); 3 is noisy but could beat them, so it is sampled
    # until it cannot; 4 is far slower after one sample and is not sampled again.
    calls = fake_timer({1: [1.0], 2: [2.0], 3: [1.5, 1.5, 9.0, 1.5, 9.0, 20.0], 4: [50.0, 50.5]})
    result = search([1, 2, 3, 4])
    samples = {m.config: m.num_samples for m in result.successes}
    assert result.best.config == 1
    assert samples[1] == samples[2] == 2 and samples[3] > 2 and samples[4] == 1
    assert sum(1 for cfg, _ in calls if cfg == 4) == 1 + 1   # one warm-up, one sample


def test_failures_are_skipped(fake_timer):
    fake_timer({64: ct.TileCompilerTimeoutError("took too long"), 128: [2.0],
                256: ct.TileCompilerExecutionError(1, "nvcc failed")})
    result = search([64, 128, 256])
    assert result.best.config == 128 and len(result.successes) == 1
    assert [(cfg, kind) for cfg, kind, _ in result.failures] == [
        (64, ct.TileCompilerTimeoutError), (256, ct.TileCompilerExecutionError)]
    assert "took too long" in result.failures[0][2]
    assert "1 succeeded, 2 failed" in str(result)


def test_nothing_to_choose(fake_timer):
    with pytest.raises(ValueError, match="Search space is empty"):
        search([])
    fake_timer({1: ct.TileCompilerTimeoutError("always")})
    with pytest.raises(ValueError, match="No valid config found in search space"):
        search([1])


def test_hints_and_kernel_factories(fake_timer):
    calls = fake_timer({1: [1.0], 2: [2.0]})
    exhaustive_search([1, 2], 0, lambda cfg: (1,),
                      lambda cfg: kernels.copy if cfg == 1 else kernels.axpy,
                      lambda cfg: (cfg,), hints_fn=lambda cfg: {"occupancy": 4 * cfg}, quiet=True)
    used = {cfg: k for cfg, k in calls}
    assert used[1]._pyfunc is kernels.copy._pyfunc and used[1]._options["occupancy"] == 4
    assert used[2]._pyfunc is kernels.axpy._pyfunc and used[2]._options["occupancy"] == 8


def test_a_launch_past_the_time_limit_is_a_failed_configuration(fake_timer, monkeypatch):
    # The first run of each configuration goes through benchmark_with_timeout (a separate
    # process, test_tune_timeout.py); one that times out is skipped as cuTile skips it.
    fake_timer({1: [1.0], 2: [0.5], 3: [2.0]})
    limited = []

    def benchmark_with_timeout(stream, grid, kernel, args, timeout_sec):
        limited.append((args[-1], timeout_sec))
        if args[-1] == 2:
            raise _tune_utils.TileLaunchTimeoutError("CUDA kernel launch exceeded timeout")
        return 1.0, None
    monkeypatch.setattr(_tune, "benchmark_with_timeout", benchmark_with_timeout)
    result = search([1, 2, 3], single_run_timeout_sec=2.0)
    assert limited == [(1, 2.0), (2, 2.0), (3, 2.0)]
    assert result.best.config == 1 and len(result.successes) == 2
    (cfg, kind, message), = result.failures
    assert (cfg, kind) == (2, _tune_utils.TileLaunchTimeoutError) and "exceeded" in message


def test_configurations_build_at_once(monkeypatch):
    """Every configuration's kernel is built before timing starts, several at a time."""
    together = threading.Barrier(3, timeout=10)
    built = []

    def prepare(k, args):
        together.wait()      # returns only when three builds run at the same time
        built.append(args[-1])
    monkeypatch.setenv("TILE2CU_COMPILER", "nvcc")
    monkeypatch.setattr(_kernel, "prepare", prepare)
    monkeypatch.setattr(_tune.os, "cpu_count", lambda: 4)
    monkeypatch.setattr(_tune, "_benchmark", lambda s, g, k, args: (built.sort(), 1.0)[1])
    result = search([1, 2, 3])
    assert sorted(built) == [1, 2, 3] and len(result.successes) == 3


def test_under_nvrtc_the_first_configuration_builds_alone_for_the_others(monkeypatch):
    """NVRTC with many configurations per core: the first configuration is built alone, asking
    for a precompiled header that the others (built at once after it) reuse."""
    together = threading.Barrier(3, timeout=10)
    built = []

    def prepare(k, args):
        if args[-1] == 1:
            assert _nvrtc_build._pch_pays() and not built
        else:
            together.wait()
        built.append(args[-1])
    monkeypatch.setattr(_nvrtc_build, "choice", lambda: ("nvrtc", None))
    monkeypatch.setattr(_nvrtc_build, "_builds_done", 0)
    monkeypatch.setattr(_kernel, "prepare", prepare)
    monkeypatch.setattr(_tune.os, "cpu_count", lambda: 3)
    monkeypatch.setattr(_tune, "_benchmark", lambda s, g, k, args: (built.sort(), 1.0)[1])
    result = search(list(range(1, 11)))
    assert built[0] == 1 and sorted(built) == list(range(1, 11)) and len(result.successes) == 10
    assert not _nvrtc_build._pch_pays()


def test_under_nvrtc_few_configurations_per_core_build_all_at_once(monkeypatch):
    """Where the others would take fewer than _FIRST_ALONE_ROUNDS rounds, building the first
    alone costs more than the header parse it saves: all are built at once."""
    together = threading.Barrier(4, timeout=10)
    built = []

    def prepare(k, args):
        together.wait()
        built.append(args[-1])
    monkeypatch.setattr(_nvrtc_build, "choice", lambda: ("nvrtc", None))
    monkeypatch.setattr(_kernel, "prepare", prepare)
    monkeypatch.setattr(_tune.os, "cpu_count", lambda: 4)
    monkeypatch.setattr(_tune, "_benchmark", lambda s, g, k, args: (built.sort(), 1.0)[1])
    assert len(search([1, 2, 3, 4]).successes) == 4


@pytest.mark.skipif(not nvcc_available(), reason="nvcc not found")
def test_a_build_that_fails_is_skipped(cache_dir, monkeypatch, fake_array):
    """A configuration whose kernel does not transpile is a failure with the transpiler's class;
    the others are timed (the timer here only checks that their build is loaded)."""
    monkeypatch.setenv("TILE2CU_ARCH", "sm_80")
    monkeypatch.setattr(_kernel._device, "_devices", None)

    def benchmark(stream, grid, k, args):
        _kernel.prepare(k, args)           # raises the build's error, remembered by the kernel
        return 1.0
    monkeypatch.setattr(_tune, "_benchmark", benchmark)
    x, y = fake_array((1000,)), fake_array((1000,))
    result = exhaustive_search(["bad", "good"], 0, lambda cfg: (8,),
                               lambda cfg: kernels.bad_shapes if cfg == "bad" else kernels.copy,
                               lambda cfg: (x, y, 128), quiet=True)
    assert [m.config for m in result.successes] == ["good"]
    (cfg, kind, message), = result.failures
    assert cfg == "bad" and kind is ct.TileTypeError and "kernels.py" in message


def test_compiler_timeout_scope():
    default = _build._timeout()
    with ct.compiler_timeout(5):
        assert _build._timeout() == 5.0
        with ct.compiler_timeout(0.5):
            assert _build._timeout() == 0.5
        assert _build._timeout() == 5.0
    assert _build._timeout() == default
    with pytest.raises(KeyError):
        with ct.compiler_timeout(7):
            raise KeyError("the limit ends with the block, however it ends")
    assert _build._timeout() == default

    @ct.compiler_timeout(3)        # cuTile's context manager also decorates
    def inside():
        return _build._timeout()
    assert inside() == 3.0 and _build._timeout() == default
    ct.compiler_timeout(9)         # not entered: no effect, as in cuTile
    assert _build._timeout() == default


def test_compiler_timeout_ends_a_build(cache_dir, monkeypatch, fake_array):
    monkeypatch.setenv("TILE2CU_ARCH", "sm_80")
    monkeypatch.setattr(_kernel._device, "_devices", None)
    k = ct.kernel(kernels.copy._pyfunc)
    args = (fake_array((64,)), fake_array((64,)), 16)
    with ct.compiler_timeout(1e-4):
        with pytest.raises(ct.TileCompilerTimeoutError, match="did not finish in 0.0001 s"):
            _kernel.prepare(k, args)
