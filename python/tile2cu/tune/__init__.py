"""`cuda.tile.tune`: cuTile's autotuner, running configurations through tile2cu's launcher.

`exhaustive_search(search_space, stream, grid_fn, kernel, args_fn, hints_fn=None, *, quiet=False,
single_run_timeout_sec=None)` times every configuration of the search space on the stream and
returns a `TuningResult` (best, successes, failures), with cuTile's signature and sampling rules.
tile2cu builds each configuration's kernel first, all at once (one transpile + nvcc per
configuration, in parallel), then times them one by one.
"""

from . import _tune, _tune_utils  # noqa: F401
from ._tune import Measurement, TuningResult, exhaustive_search  # noqa: F401

__all__ = ["Measurement", "TuningResult", "exhaustive_search"]
