"""cuTile's exhaustive search: every configuration is warmed up and timed on the stream, the
promising ones until their mean is known to within 1% (or 0.5 us), the rest until they cannot
beat the best `_TOP_K`; the fastest mean wins. Configurations whose kernel fails to build or
launch are reported as failures and skipped. Sampling rules and constants follow cuTile's
`cuda.tile.tune` so that a search picks the same way; tile2cu adds one step in front: the
kernels of all configurations are built at once, each build a transpiler and an nvcc process.
"""

from __future__ import annotations

import heapq
import math
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Generic, Sequence, TypeVar

from .. import _kernel, _nvrtc_build
from ._tune_utils import _benchmark, benchmark_with_timeout  # noqa: F401 - replaceable in tests

T = TypeVar("T")

_MAX_MEASURE_TIME_US = 5_000_000   # stop sampling a configuration after about 5 s of GPU time
_MAX_REPEATS = 1000
_MIN_REPEATS = 5
_BATCH_REPEATS = 5
_WARM_UP_REPEATS = 3
_TOP_K = 5
_SPINNER = "|/-\\"


@dataclass(frozen=True, kw_only=True)
class Measurement(Generic[T]):
    """A configuration and its timing."""

    config: T
    mean_us: float
    num_samples: int
    error_margin_us: float   # half the 95% confidence interval of the mean


@dataclass(frozen=True, kw_only=True)
class TuningResult(Generic[T]):
    """The measurement of each configuration that ran, the best of them, and the failures as
    `(config, exception type, message)`."""

    best: Measurement
    successes: Sequence[Measurement]
    failures: Sequence[tuple]

    def summary(self, *, top_k=10, bottom_k=2) -> str:
        """The counts, then the configurations by time (the `top_k` fastest and `bottom_k`
        slowest; the best marked *), then the failures' first lines."""
        n_ok, n_fail = len(self.successes), len(self.failures)
        lines = [f"{n_ok} succeeded, {n_fail} failed"]
        ranked = sorted(self.successes, key=lambda m: m.mean_us)
        hide_from, hide_to = top_k, n_ok - bottom_k
        if hide_to - hide_from == 1:      # hiding a single line saves nothing
            hide_from += 1
        widths = [max(len(text(m)) for m in self.successes) for text in (
            lambda m: str(m.config), lambda m: f"{m.mean_us:.1f}",
            lambda m: f"{m.error_margin_us:.1f}", lambda m: str(m.num_samples))]
        cw, mw, ew, nw = widths
        for i, m in enumerate(ranked):
            if hide_from <= i < hide_to:
                if i == hide_from:
                    lines.append(f"    ... {hide_to - hide_from} more not shown")
                continue
            mark = "*" if m == self.best else " "
            lines.append(f"{mark} {str(m.config):<{cw}}: {m.mean_us:>{mw}.1f}±"
                         f"{m.error_margin_us:<{ew}.1f} us ({m.num_samples:{nw}} samples)")
        if self.failures:
            lines.append(f"  {n_fail} failed:")
            for cfg, kind, message in self.failures[:top_k]:
                first = message.split("\n", 1)[0]
                if len(first) > 60:
                    first = first[:57] + "..."
                lines.append(f"    {cfg}: {kind.__name__}: {first}")
            if n_fail > top_k:
                lines.append(f"    ... {n_fail - top_k} more not shown")
        if n_ok > top_k or n_fail > top_k:
            lines.append("Use .successes and .failures for full results.")
        return "\n".join(lines)

    def __str__(self):
        return self.summary()


class _Candidate:
    """One configuration being timed: a running mean and variance of its samples (Welford)."""

    def __init__(self, config, grid, kernel, get_args):
        self.config, self.grid, self.kernel, self.get_args = config, grid, kernel, get_args
        self.num_samples = 0
        self.mean_us = self.m2 = self.error_margin_us = 0.0

    def warm_up(self, stream, times, launch_timeout_sec):
        for i in range(times):
            if i == 0 and launch_timeout_sec is not None:   # the first run proves it ends
                benchmark_with_timeout(stream, self.grid, self.kernel, self.get_args(),
                                       launch_timeout_sec)
            else:
                _benchmark(stream, self.grid, self.kernel, self.get_args())

    def sample(self, stream, times):
        for _ in range(min(times, _MAX_REPEATS - self.num_samples)):
            self._add(_benchmark(stream, self.grid, self.kernel, self.get_args()))

    def _add(self, us):
        self.num_samples += 1
        delta = us - self.mean_us
        self.mean_us += delta / self.num_samples
        self.m2 += delta * (us - self.mean_us)
        if self.num_samples > 1:
            variance_of_mean = self.m2 / (self.num_samples - 1) / self.num_samples
            self.error_margin_us = 1.96 * math.sqrt(variance_of_mean)

    def converged(self) -> bool:
        return self.num_samples >= _MIN_REPEATS and (
            self.error_margin_us <= 0.01 * self.mean_us or self.error_margin_us <= 0.5
            or self.num_samples >= _MAX_REPEATS
            or self.mean_us * self.num_samples > _MAX_MEASURE_TIME_US)

    def measurement(self) -> Measurement:
        return Measurement(config=self.config, mean_us=self.mean_us,
                           num_samples=self.num_samples, error_margin_us=self.error_margin_us)


def _build_all(candidates) -> None:
    """Builds every candidate's kernel specialization at once (each build is a transpiler and
    an nvcc process, or NVRTC in process, which holds no lock of Python's: threads suffice). A failure is left for the candidate's first launch
    to raise again (a kernel remembers its build errors), where it is recorded."""
    def build(c):
        try:
            _kernel.prepare(c.kernel, c.get_args())
        except Exception:   # noqa: BLE001 - reported by the launch that follows
            pass
    jobs = min(len(candidates), os.cpu_count() or 1)
    if len(candidates) - 1 >= _FIRST_ALONE_ROUNDS * jobs and _uses_nvrtc():
        # NVRTC: the first candidate alone keeps its parse of the runtime headers (an in-memory
        # precompiled header) for the others, which skip most of their front end.
        with _nvrtc_build.more_builds_follow():
            build(candidates[0])
        candidates = candidates[1:]
    if jobs <= 1:
        for c in candidates:
            build(c)
        return
    with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="tile2cu-tune") as pool:
        list(pool.map(build, candidates))


# Building the first candidate alone costs one build's time and saves the front end (about 40 %
# of a GEMM configuration's NVRTC time, 75-90 % of a row kernel's) of every later one: it pays
# where the others take at least this many rounds of `jobs` builds at once.
_FIRST_ALONE_ROUNDS = 2.5


def _uses_nvrtc() -> bool:
    try:
        return _nvrtc_build.choice()[0] == "nvrtc"
    except ValueError:      # a bad TILE2CU_COMPILER: the builds themselves report it
        return False


def _progress(quiet, phase, n, total, errors):
    if quiet or not _in_terminal():
        return
    if n == 0:
        print()
    what = ("Warmup & initial run", f"Converging Top-{total} configs", "Converging all configs")
    width = len(str(total))
    end = "\r\033[K" if n == total - 1 else ""
    print(f"\r{_SPINNER[n % 4]} [Phase {phase}/2] {what[phase]}: {n:{width}}/{total} | "
          f"Errors: {errors:{width}}", end=end, flush=True)


def _in_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except AttributeError:
        return False


def exhaustive_search(
    search_space: Sequence[T],
    stream,
    grid_fn: Callable[[T], tuple],
    kernel,
    args_fn: Callable[[T], tuple],
    hints_fn: Callable[[T], dict[str, Any]] | None = None,
    *,
    quiet: bool = False,
    single_run_timeout_sec: float | None = None,
) -> TuningResult[T]:
    """Times every configuration of `search_space` and returns the result, the fastest as
    `.best`. `kernel` is a kernel or a function from a configuration to one; `hints_fn` maps a
    configuration to `replace_hints` options; `args_fn` gives the arguments (called for every
    run, so a kernel that writes its inputs can get fresh copies). Prints the summary unless
    `quiet`. Raises ValueError for an empty space or when no configuration ran."""
    total = len(search_space)
    if total == 0:
        raise ValueError("Search space is empty.")

    candidates = []
    for cfg in search_space:
        base = kernel if isinstance(kernel, _kernel.kernel) else kernel(cfg)
        hints = hints_fn(cfg) if hints_fn is not None else {}
        candidates.append(_Candidate(cfg, grid_fn(cfg), base.replace_hints(**hints),
                                     lambda _cfg=cfg: args_fn(_cfg)))
    _build_all(candidates)

    running, converged, errors = [], [], []

    def failed(c, e):
        errors.append((c.config, type(e), str(e)))

    # Phase 0: warm up and time each configuration once.
    for order, c in enumerate(candidates):
        _progress(quiet, 0, order, total, len(errors))
        try:
            c.warm_up(stream, _WARM_UP_REPEATS, single_run_timeout_sec)
            c.sample(stream, _BATCH_REPEATS)
        except Exception as e:  # noqa: BLE001 - a failed configuration is skipped, as in cuTile
            failed(c, e)
            continue
        if c.converged():
            converged.append(c)
        else:
            heapq.heappush(running, (c.mean_us, c.error_margin_us, order, c))

    # Phase 1: sample the fastest unconverged configurations until _TOP_K have converged.
    while len(converged) < _TOP_K and running:
        _, _, order, c = heapq.heappop(running)
        try:
            c.sample(stream, _BATCH_REPEATS)
        except Exception as e:  # noqa: BLE001
            failed(c, e)
            continue
        if c.converged():
            _progress(quiet, 1, len(converged), min(_TOP_K, total), len(errors))
            converged.append(c)
        else:
            heapq.heappush(running, (c.mean_us, c.error_margin_us, order, c))

    # Phase 2: sample the others only while they could still beat the slowest of the top.
    if converged and running:
        top = heapq.nsmallest(_TOP_K, converged, key=lambda c: c.mean_us)
        cutoff_us = max(c.mean_us for c in top)
        for _, _, _, c in running:
            try:
                while not c.converged() and c.mean_us - c.error_margin_us < cutoff_us:
                    c.sample(stream, _BATCH_REPEATS)
            except Exception as e:  # noqa: BLE001
                failed(c, e)
                continue
            _progress(quiet, 2, len(converged), total, len(errors))
            converged.append(c)

    successes = [c.measurement() for c in converged]
    if not successes:
        cfg, kind, message = errors[0]
        raise ValueError(f"No valid config found in search space.\nConfig: {cfg}\n"
                         f"{kind.__name__}: {message}")
    result = TuningResult(best=min(successes, key=lambda m: m.mean_us),
                          successes=tuple(successes), failures=tuple(errors))
    if not quiet:
        print(result)
    return result
