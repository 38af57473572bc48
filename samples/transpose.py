"""2-D transpose: y = x.T, one (TM, TN) tile of x per block.

Block (i, j) loads the tile at tile index (i, j) of x and stores its transpose at (j, i) of y.
The element exchange happens in shared memory inside ct.transpose; both the load and the store
are coalesced along the arrays' contiguous last axis.

Launch: grid = (ct.cdiv(m, TM), ct.cdiv(n, TN)) for x of shape (m, n), y of shape (n, m)
(transpose_pipelined: see its docstring)

occupancy=6 asks for six CTAs per SM (at most 40 registers a thread): a transpose keeps little
in registers, and the more blocks an SM holds, the more loads are in flight. On the H200,
transpose_pipelined_f32_8 went from 0.71x to 0.85x of a device-to-device copy with it, and
transpose_f32 from 0.74x to 0.77x (docs/perf-notes.md, round 10).
"""
import cuda.tile as ct


@ct.kernel(occupancy=6)
def transpose(x, y, TM: ct.Constant[int], TN: ct.Constant[int]):
    i = ct.bid(0)
    j = ct.bid(1)
    tile = ct.load(x, index=(i, j), shape=(TM, TN))
    ct.store(y, index=(j, i), tile=ct.transpose(tile))


@ct.kernel(occupancy=6)
def transpose_pipelined(x, y, TM: ct.Constant[int], TN: ct.Constant[int], STEPS: ct.Constant[int]):
    """The same, STEPS row tiles per block: the load of the next tile is issued before the
    current one goes through shared memory, so it is in flight during the exchange.
    Launch: grid = (ct.cdiv(m, TM * STEPS), ct.cdiv(n, TN))"""
    first = ct.bid(0) * STEPS
    j = ct.bid(1)
    upcoming = ct.load(x, index=(first, j), shape=(TM, TN))
    for k in range(STEPS):
        tile = upcoming
        upcoming = ct.load(x, index=(first + min(k + 1, STEPS - 1), j), shape=(TM, TN))
        ct.store(y, index=(j, first + k), tile=ct.transpose(tile))
