"""Grouped GEMM: C_g = A_g @ B_g for every group g of a list, each group with its own M, N and K
(a mixture-of-experts layer, or the per-head products of a ragged batch).

The groups' output tiles are numbered one after another: group 0's tiles, then group 1's, and
so on. The grid is persistent: CTA p takes tiles p, p + P, p + 2P, ... (P = the number of CTAs,
typically the number of SMs), so one launch covers every group whatever their sizes. Each
tile's k-loop is the shape tile2cu pipelines (load A, load B, mma): the arrays it loads are the
group's list items, picked before the loop.

Launch: grid = (number of SMs,); As, Bs, Cs: lists of equal length.
"""
import cuda.tile as ct

ZERO = ct.PaddingMode.ZERO


@ct.kernel
def grouped_matmul(As, Bs, Cs, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    tile_id = ct.bid(0)
    first = 0  # the number of the first tile of group g
    for g in range(len(As)):
        A = As[g]
        B = Bs[g]
        C = Cs[g]
        tiles_n = ct.cdiv(B.shape[1], BN)
        count = ct.cdiv(A.shape[0], BM) * tiles_n
        while tile_id < first + count:  # this CTA's tiles in group g
            row = (tile_id - first) // tiles_n
            col = (tile_id - first) % tiles_n
            acc = ct.zeros((BM, BN), dtype=ct.float32)
            for k in range(ct.cdiv(A.shape[1], BK)):
                a = ct.load(A, index=(row, k), shape=(BM, BK), padding_mode=ZERO)
                b = ct.load(B, index=(k, col), shape=(BK, BN), padding_mode=ZERO)
                acc = ct.mma(a, b, acc)
            ct.store(C, index=(row, col), tile=acc.astype(C.dtype))
            tile_id += ct.num_blocks(0)
        first += count
