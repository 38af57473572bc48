"""Split-K matrix multiply in one pass: the K dimension is cut into SPLITS ranges, CTA (row, col, s)
computes the partial product of range s for output tile (row, col), and the splits meet in C
through atomic adds (C is float32 and zeroed by the caller). Useful when M x N has too few
tiles to fill the GPU but K is long. (samples/matmul.py has the two-pass form: partial
products to a workspace, then a reduction kernel.)

splitk_atomic_epilogue adds the last step many GEMMs need: the f32 sums land in a workspace,
a per-tile counter records how many splits have added theirs, and the CTA that brings it to
SPLITS converts the finished tile to C's dtype, stores it, and clears the workspace tile and
the counter for the next call.

Launch: grid = (ct.cdiv(M, BM), ct.cdiv(N, BN), SPLITS)
  splitk_atomic           C: (M, N) float32, zeroed
  splitk_atomic_epilogue  workspace: (M, N) float32 and counters: (tiles_m, tiles_n) int32,
                          zeroed once (each call leaves them zeroed)
"""
import cuda.tile as ct

ZERO = ct.PaddingMode.ZERO


def partial_product(A, B, row, col, s, BM, BN, BK, SPLITS):
    """This split's share of tile (row, col): k-tiles [s * per_split, (s + 1) * per_split)."""
    k_tiles = ct.cdiv(A.shape[1], BK)
    per_split = ct.cdiv(k_tiles, SPLITS)
    acc = ct.zeros((BM, BN), dtype=ct.float32)
    for k in range(s * per_split, min((s + 1) * per_split, k_tiles)):
        a = ct.load(A, index=(row, k), shape=(BM, BK), padding_mode=ZERO)
        b = ct.load(B, index=(k, col), shape=(BK, BN), padding_mode=ZERO)
        acc = ct.mma(a, b, acc)
    return acc


def tile_elements(row, col, BM, BN):
    """Element indices of output tile (row, col): a (BM, 1) column and a (1, BN) row."""
    rows = row * BM + ct.arange(BM, dtype=ct.int32)
    cols = col * BN + ct.arange(BN, dtype=ct.int32)
    return rows[:, None], cols[None, :]


@ct.kernel
def splitk_atomic(A, B, C, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int],
                  SPLITS: ct.Constant[int]):
    row, col, s = ct.bid(0), ct.bid(1), ct.bid(2)
    acc = partial_product(A, B, row, col, s, BM, BN, BK, SPLITS)
    # Elements past C's edge are skipped (check_bounds): ragged M and N need no padding.
    ct.atomic_add(C, tile_elements(row, col, BM, BN), acc, memory_order=ct.MemoryOrder.RELAXED)


@ct.kernel
def splitk_atomic_epilogue(A, B, C, workspace, counters, BM: ct.Constant[int], BN: ct.Constant[int],
                           BK: ct.Constant[int], SPLITS: ct.Constant[int]):
    row, col, s = ct.bid(0), ct.bid(1), ct.bid(2)
    acc = partial_product(A, B, row, col, s, BM, BN, BK, SPLITS)
    elements = tile_elements(row, col, BM, BN)
    ct.atomic_add(workspace, elements, acc, memory_order=ct.MemoryOrder.RELAXED)
    # Release this split's adds, and learn how many splits came before.
    arrived = ct.atomic_add(counters, (row, col), 1, memory_order=ct.MemoryOrder.ACQ_REL)
    if arrived == SPLITS - 1:  # the last split: every partial sum is in the workspace
        total = ct.atomic_xchg(workspace, elements, ct.zeros((BM, BN), dtype=ct.float32))
        ct.store(C, index=(row, col), tile=total.astype(C.dtype))
        ct.atomic_xchg(counters, (row, col), 0)
