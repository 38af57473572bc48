"""Kernels with small tiles, which run several blocks per CTA (issue 30): module level, as
tile2cu needs. tests/python/test_small_tiles_gpu.py launches them."""
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def vector_add(a, b, result, TILE: ConstInt):
    block_id = ct.bid(0)
    a_tile = ct.load(a, index=(block_id,), shape=(TILE,))
    b_tile = ct.load(b, index=(block_id,), shape=(TILE,))
    ct.store(result, index=(block_id,), tile=a_tile + b_tile)


@ct.kernel
def grid_queries(out):
    """Each block writes what it sees of the grid into its own 4 elements: bid(0), num_blocks(0),
    bid(1), num_blocks(1)."""
    bx, by = ct.bid(0), ct.bid(1)
    seen = ct.where(ct.arange(4, dtype=ct.int32) == 0, bx,
                    ct.where(ct.arange(4, dtype=ct.int32) == 1, ct.num_blocks(0),
                             ct.where(ct.arange(4, dtype=ct.int32) == 2, by, ct.num_blocks(1))))
    ct.store(out, index=(by * ct.num_blocks(0) + bx,), tile=seen)


@ct.kernel
def skip_every_third(x, y, counts):
    """Blocks whose index is 2 mod 3 return at once; the others copy their 8 elements and count
    them with tile atomics."""
    bx = ct.bid(0)
    if bx % 3 == 2:
        return
    ct.store(y, index=(bx,), tile=ct.load(x, index=(bx,), shape=(8,)))
    ct.atomic_add(counts, ct.arange(8, dtype=ct.int32), 1)


@ct.kernel
def write_then_read_back(x, y, z):
    """Reads the second half of what the block just wrote, in tiles dealt out to other threads."""
    bx = ct.bid(0)
    ct.store(y, index=(bx,), tile=ct.load(x, index=(bx,), shape=(32,)) * 2)
    t = ct.load(y, index=(2 * bx + 1,), shape=(16,))
    ct.store(z, index=(bx,), tile=t + 1)


@ct.kernel
def block_collectives(x, sums, cums, args, perm, totals):
    """Moves of elements between a block's threads, on 4 x 8 tiles: a sum and an argmax along
    rows, a cumulative sum, a transpose and the sum of the whole tile."""
    bx = ct.bid(0)
    t = ct.load(x, index=(bx, 0), shape=(4, 8))
    ct.store(sums, index=(bx,), tile=ct.sum(t, axis=1))
    ct.store(cums, index=(bx, 0), tile=ct.cumsum(t, axis=1))
    ct.store(args, index=(bx,), tile=ct.argmax(t, axis=1))
    ct.store(perm, index=(0, bx), tile=ct.permute(t, (1, 0)))
    ct.store(totals, index=(bx,), tile=ct.full((4,), 0.0, dtype=ct.float32) + ct.sum(t))


@ct.kernel
def softmax_rows(x, y, N: ConstInt):
    """One row of N elements per block, as a (1, N) tile (cuTile's softmax samples' shape)."""
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, N), padding_mode=ct.PaddingMode.NEG_INF).astype(ct.float32)
    t = t - ct.max(t, axis=1, keepdims=True)
    e = ct.exp(t)
    ct.store(y, index=(row, 0), tile=(e / ct.sum(e, axis=1, keepdims=True)).astype(y.dtype))


@ct.kernel
def rms_norm_rows(x, w, y, eps: float, N: ConstInt):
    """One row of N elements per block: x / sqrt(mean(x^2) + eps) * w."""
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, N), padding_mode=ct.PaddingMode.ZERO).astype(ct.float32)
    ms = ct.sum(t * t, axis=1, keepdims=True) / N
    g = ct.load(w, index=(0,), shape=(N,), padding_mode=ct.PaddingMode.ZERO).astype(ct.float32)
    ct.store(y, index=(row, 0), tile=(t * ct.rsqrt(ms + eps) * ct.reshape(g, (1, N))).astype(y.dtype))
