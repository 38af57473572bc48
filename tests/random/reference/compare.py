"""Comparing a kernel's outputs (from the GPU) with the reference's runs: exact, perturbed, and
the perturbed run's mirror image (its roundings moved the other way: numerics.Mode).

Per element of every written array:
- racy (two blocks wrote different values, or one scatter wrote two): skipped;
- integers and bools: bit-exact against the exact run, unless the exact run and a perturbed
  one disagree there (the value depends on float rounding upstream: counted as unstable,
  skipped);
- floats: NaN where the exact run has NaN; otherwise |gpu - exact| <= atol + rtol * |exact| +
  SLACK * max |exact - perturbed| over the perturbed runs (infinities must match; an element
  that is infinite or NaN in only one of the runs is unstable); elements the kernel never wrote
  keep their poison bit-exactly (NaN stays NaN)."""
import numpy as np

from . import numerics as nx

SLACK = 8.0
ULPS = 4  # rtol in units of the dtype's unit roundoff: the last operation rounded differently


def tolerances(dtype):
    mant, emin, _, _ = nx.FORMATS[dtype]
    rtol = ULPS * 2.0 ** -(mant + 1)
    atol = 4 * 2.0 ** emin  # a flushed subnormal
    return rtol, atol


def compare_array(dtype, gpu, exact, perturbed, racy, mirrored=None):
    """-> (number of mismatching elements, number skipped as unstable, first mismatch text).
    `mirrored` (the perturbed run's mirror image), when given, counts as a second perturbed run:
    an element is unstable where either differs so, and the spread is the larger distance."""
    gpu, exact, perturbed = (np.asarray(a) for a in (gpu, exact, perturbed))
    if gpu.shape != exact.shape:
        return exact.size, 0, f"shape {gpu.shape} != {exact.shape}"
    others = [perturbed] + ([np.asarray(mirrored)] if mirrored is not None else [])
    check = ~np.asarray(racy, dtype=bool)
    if not nx.is_float(dtype):
        unstable = np.zeros(exact.shape, dtype=bool)
        for other in others:
            unstable |= exact != other
        bad = check & ~unstable & (gpu != exact)
    else:
        g, e = gpu.astype(np.float64), exact.astype(np.float64)
        nan_e, nan_g, inf_e = np.isnan(e), np.isnan(g), np.isinf(e)
        unstable = np.zeros(e.shape, dtype=bool)
        spread = np.zeros(e.shape)
        for other in others:
            p = other.astype(np.float64)
            nan_p, inf_p = np.isnan(p), np.isinf(p)
            unstable |= (nan_e != nan_p) | (inf_e != inf_p) | (inf_e & inf_p & (e != p))
            with np.errstate(all="ignore"):
                spread = np.maximum(spread, np.where(np.isfinite(e) & np.isfinite(p), np.abs(e - p), 0.0))
        rtol, atol = tolerances(dtype)
        with np.errstate(all="ignore"):
            close = np.abs(g - e) <= atol + rtol * np.abs(e) + SLACK * spread
        same = np.where(nan_e, nan_g, np.where(inf_e, g == e, close & ~nan_g))
        bad = check & ~unstable & ~same
    n_bad = int(bad.sum())
    first = ""
    if n_bad:
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        first = f"at {idx}: gpu {gpu[idx]!r}, reference {exact[idx]!r} (perturbed run {perturbed[idx]!r}" + \
            (f", mirrored {others[1][idx]!r})" if len(others) > 1 else ")")
    return n_bad, int((check & unstable).sum()), first
