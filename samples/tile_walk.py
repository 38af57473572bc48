"""Control flow over tiles: a grid-stride `for` with break/continue, then a `while` loop.

With n = ct.cdiv(len(x), TILE) tiles and a runtime `stop_tile`:
  * tiles t < stop_tile:   y = -x            if t % 3 == 2
                           y = 1 + x + x     otherwise (accumulated in a constant-step loop)
  * tiles t >= stop_tile:  y = 0.5 + (k % 1000), k the global element index
The first loop breaks as soon as it reaches stop_tile; the while loop then covers the rest.

Launch: grid = (any positive number of blocks,); stop_tile >= 0
"""
import cuda.tile as ct
from cuda.tile import Constant

PAD_ZERO = ct.PaddingMode.ZERO


@ct.kernel
def tile_walk(x, y, stop_tile: int, TILE: Constant[int]):
    n = ct.cdiv(x.shape[0], TILE)
    step = ct.num_blocks(0)

    for t in range(ct.bid(0), n, step):
        if t >= stop_tile:
            break
        v = ct.load(x, index=(t,), shape=(TILE,), padding_mode=PAD_ZERO, latency=2)
        if t % 3 == 2:
            ct.store(y, index=(t,), tile=-v)
            continue
        acc = ct.ones((TILE,), dtype=ct.float32)
        for k in range(0, 4, 2):
            acc = acc + v
        ct.store(y, index=(t,), tile=acc.astype(y.dtype))

    lane = ct.arange(TILE, dtype=ct.int32)
    half = ct.full((TILE,), 0.5, dtype=y.dtype)
    rest = max(stop_tile, 0) + ct.bid(0)
    while rest < n:
        marker = half + ((lane + rest * TILE) % 1000).astype(y.dtype)
        ct.store(y, index=(rest,), tile=marker)
        rest += step
