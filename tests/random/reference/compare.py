"""Comparing a kernel's outputs (from the GPU) with the reference's two runs.

Per element of every written array:
- racy (two blocks wrote different values, or one scatter wrote two): skipped;
- integers and bools: bit-exact against the exact run, unless the exact and perturbed runs
  disagree there (the value depends on float rounding upstream: counted as unstable, skipped);
- floats: NaN where the exact run has NaN; otherwise |gpu - exact| <= atol + rtol * |exact| +
  SLACK * |exact - perturbed| (infinities must match; an element that is infinite or NaN in only
  one of the two runs is unstable); elements the kernel never wrote keep their poison bit-exactly
  (NaN stays NaN)."""
import numpy as np

from . import numerics as nx

SLACK = 8.0
ULPS = 4  # rtol in units of the dtype's unit roundoff: the last operation rounded differently


def tolerances(dtype):
    mant, emin, _, _ = nx.FORMATS[dtype]
    rtol = ULPS * 2.0 ** -(mant + 1)
    atol = 4 * 2.0 ** emin  # a flushed subnormal
    return rtol, atol


def compare_array(dtype, gpu, exact, perturbed, racy):
    """-> (number of mismatching elements, number skipped as unstable, first mismatch text)."""
    gpu, exact, perturbed = (np.asarray(a) for a in (gpu, exact, perturbed))
    if gpu.shape != exact.shape:
        return exact.size, 0, f"shape {gpu.shape} != {exact.shape}"
    check = ~np.asarray(racy, dtype=bool)
    if not nx.is_float(dtype):
        unstable = exact != perturbed
        bad = check & ~unstable & (gpu != exact)
    else:
        g, e, p = (a.astype(np.float64) for a in (gpu, exact, perturbed))
        nan_e, nan_p, nan_g = np.isnan(e), np.isnan(p), np.isnan(g)
        inf_e, inf_p = np.isinf(e), np.isinf(p)
        unstable = (nan_e != nan_p) | (inf_e != inf_p) | (inf_e & inf_p & (e != p))
        rtol, atol = tolerances(dtype)
        with np.errstate(all="ignore"):
            spread = np.where(np.isfinite(e) & np.isfinite(p), np.abs(e - p), 0.0)
            close = np.abs(g - e) <= atol + rtol * np.abs(e) + SLACK * spread
        same = np.where(nan_e, nan_g, np.where(inf_e, g == e, close & ~nan_g))
        bad = check & ~unstable & ~same
    n_bad = int(bad.sum())
    first = ""
    if n_bad:
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        first = f"at {idx}: gpu {gpu[idx]!r}, reference {exact[idx]!r} (perturbed run {perturbed[idx]!r})"
    return n_bad, int((check & unstable).sum()), first
