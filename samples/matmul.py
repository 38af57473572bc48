"""Matrix multiply C = A @ B, six ways: tiled (2-D grid, grouped block order), accumulating
(C += A @ B), linear (B given transposed, as nn.Linear weights are), persistent
(grid = number of SMs, each CTA walks many output tiles), batched (3-D arrays, one batch
entry per grid z), and split-K in two passes (partial products, then their sum).

Every k-loop here has the shape tile2cu recognises and lowers to a pipelined main loop
(tile2cu/gemm_pipeline.cuh): load a tile of A, load a tile of B, acc = ct.mma(a, b, acc).
f32 inputs take tensor cores as tf32 when TF32 is set.

Launch:
  matmul, matmul_accumulate, linear
                     grid = (ct.cdiv(M, BM) * ct.cdiv(N, BN),)
  persistent_matmul  grid = (number of SMs,)
  batched_matmul     grid = (ct.cdiv(M, BM), ct.cdiv(N, BN), batch)
  splitk_partial     grid = (ct.cdiv(M, BM), ct.cdiv(N, BN), SPLITS); partial: (SPLITS, M, N) f32
  splitk_reduce      grid = (ct.cdiv(M, BM), ct.cdiv(N, BN))
"""
import cuda.tile as ct

from tile_order import grouped_tile  # a helper module beside this file

ZERO = ct.PaddingMode.ZERO


def operand(t, TF32: ct.Constant[bool]):
    if TF32:
        return t.astype(ct.tfloat32)
    return t


def k_loop(A, B, row, col, acc, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int],
           TF32: ct.Constant[bool]):
    """acc + A[row block, :] @ B[:, col block], one k-tile at a time."""
    for k in range(ct.cdiv(A.shape[1], BK)):
        a = operand(ct.load(A, index=(row, k), shape=(BM, BK), padding_mode=ZERO), TF32)
        b = operand(ct.load(B, index=(k, col), shape=(BK, BN), padding_mode=ZERO), TF32)
        acc = ct.mma(a, b, acc)
    return acc


@ct.kernel
def matmul(A, B, C, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int],
           GROUP: ct.Constant[int], TF32: ct.Constant[bool]):
    tiles_m = ct.cdiv(A.shape[0], BM)
    tiles_n = ct.cdiv(B.shape[1], BN)
    row, col = grouped_tile(ct.bid(0), tiles_m, tiles_n, GROUP)
    acc = k_loop(A, B, row, col, ct.zeros((BM, BN), dtype=ct.float32), BM, BN, BK, TF32)
    ct.store(C, index=(row, col), tile=acc.astype(C.dtype))


@ct.kernel
def linear(X, W, Y, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int], GROUP: ct.Constant[int]):
    # Y = X @ W^T with W stored (N, K), as nn.Linear keeps its weights: order=(1, 0) loads a
    # (BK, BN) tile of W^T straight from W.
    tiles_m = ct.cdiv(X.shape[0], BM)
    tiles_n = ct.cdiv(W.shape[0], BN)
    row, col = grouped_tile(ct.bid(0), tiles_m, tiles_n, GROUP)
    acc = ct.zeros((BM, BN), dtype=ct.float32)
    for k in range(ct.cdiv(X.shape[1], BK)):
        x = ct.load(X, index=(row, k), shape=(BM, BK), padding_mode=ZERO)
        wt = ct.load(W, index=(k, col), shape=(BK, BN), order=(1, 0), padding_mode=ZERO)
        acc = ct.mma(x, wt, acc)
    ct.store(Y, index=(row, col), tile=acc.astype(Y.dtype))


@ct.kernel
def matmul_accumulate(A, B, C, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int],
                      GROUP: ct.Constant[int], TF32: ct.Constant[bool]):
    # C += A @ B in place: the k-loop starts from C's tile rather than from zeros.
    tiles_m = ct.cdiv(A.shape[0], BM)
    tiles_n = ct.cdiv(B.shape[1], BN)
    row, col = grouped_tile(ct.bid(0), tiles_m, tiles_n, GROUP)
    c = ct.load(C, index=(row, col), shape=(BM, BN), padding_mode=ZERO).astype(ct.float32)
    acc = k_loop(A, B, row, col, c, BM, BN, BK, TF32)
    ct.store(C, index=(row, col), tile=acc.astype(C.dtype))


@ct.kernel
def persistent_matmul(A, B, C, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int],
                      GROUP: ct.Constant[int]):
    tiles_m = ct.cdiv(A.shape[0], BM)
    tiles_n = ct.cdiv(B.shape[1], BN)
    for tile_id in range(ct.bid(0), tiles_m * tiles_n, ct.num_blocks(0)):
        row, col = grouped_tile(tile_id, tiles_m, tiles_n, GROUP)
        acc = ct.zeros((BM, BN), dtype=ct.float32)
        for k in range(ct.cdiv(A.shape[1], BK)):
            a = ct.load(A, index=(row, k), shape=(BM, BK), padding_mode=ZERO)
            b = ct.load(B, index=(k, col), shape=(BK, BN), padding_mode=ZERO)
            acc = ct.mma(a, b, acc)
        ct.store(C, index=(row, col), tile=acc.astype(C.dtype))


@ct.kernel
def batched_matmul(A, B, C, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    row = ct.bid(0)
    col = ct.bid(1)
    z = ct.bid(2)
    acc = ct.zeros((1, BM, BN), dtype=ct.float32)
    for k in range(ct.cdiv(A.shape[2], BK)):
        a = ct.load(A, index=(z, row, k), shape=(1, BM, BK), padding_mode=ZERO)
        b = ct.load(B, index=(z, k, col), shape=(1, BK, BN), padding_mode=ZERO)
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(z, row, col), tile=acc.astype(C.dtype))


@ct.kernel
def splitk_partial(A, B, partial, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int],
                   SPLITS: ct.Constant[int]):
    # Split s covers k-tiles [s * per_split, (s + 1) * per_split) and writes partial[s].
    row = ct.bid(0)
    col = ct.bid(1)
    s = ct.bid(2)
    per_split = ct.cdiv(ct.cdiv(A.shape[1], BK), SPLITS)
    k_end = min((s + 1) * per_split, ct.cdiv(A.shape[1], BK))
    acc = ct.zeros((BM, BN), dtype=ct.float32)
    for k in range(s * per_split, k_end):
        a = ct.load(A, index=(row, k), shape=(BM, BK), padding_mode=ZERO)
        b = ct.load(B, index=(k, col), shape=(BK, BN), padding_mode=ZERO)
        acc = ct.mma(a, b, acc)
    ct.store(partial, index=(s, row, col), tile=acc.reshape((1, BM, BN)))


@ct.kernel
def splitk_reduce(partial, C, BM: ct.Constant[int], BN: ct.Constant[int], SPLITS: ct.Constant[int]):
    row = ct.bid(0)
    col = ct.bid(1)
    parts = ct.load(partial, index=(0, row, col), shape=(SPLITS, BM, BN), padding_mode=ZERO)
    ct.store(C, index=(row, col), tile=ct.sum(parts, axis=0).astype(C.dtype))
