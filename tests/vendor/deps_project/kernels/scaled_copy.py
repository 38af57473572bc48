"""y = x * 2, with host-side helper modules imported next to it (the build must track them)."""
import cuda.tile as ct

import launch_config  # noqa: F401  (host-side settings; a local module next to this file)
from shared import tiling  # noqa: F401  (a package folder with its own modules)


@ct.kernel
def scaled_copy(x, y, TILE: ct.Constant[int]):
    block = ct.bid(0)
    t = ct.load(x, index=(block,), shape=(TILE,))
    ct.store(y, index=(block,), tile=t * 2)
