"""ct.mma / ct.matmul / @ on one (TM, TK) x (TK, TN) tile per block, for every operand dtype.

Block (i, j) computes c[i, j] = a[i, :TK] @ b[:TK, j] + c_in[i, j] with the accumulator dtype
the signature's c has (cuTile's table: f16 -> f16 or f32, bf16 / tf32 / f32 -> f32,
int8 -> int32, f64 -> f64). The k-loop is absent on purpose: this is the general mma, not the
recognised GEMM main loop. f32 operands go through tensor cores when TF32 is set.

Launch: grid = (ct.cdiv(M, TM), ct.cdiv(N, TN)), K <= TK.
"""
import cuda.tile as ct


@ct.kernel
def mma_tile(a, b, c, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int],
             TF32: ct.Constant[bool]):
    i = ct.bid(0)
    j = ct.bid(1)
    x = ct.load(a, index=(i, 0), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
    y = ct.load(b, index=(0, j), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
    if TF32:
        x = x.astype(ct.tfloat32)
        y = y.astype(ct.tfloat32)
    acc = ct.load(c, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
    ct.store(c, index=(i, j), tile=ct.mma(x, y, acc))


@ct.kernel
def matmul_tile(a, b, c, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):
    # matmul promotes, accumulates in the default accumulator and casts back to the inputs' dtype.
    i = ct.bid(0)
    j = ct.bid(1)
    x = ct.load(a, index=(i, 0), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
    y = ct.load(b, index=(0, j), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
    ct.store(c, index=(i, j), tile=x @ y)


@ct.kernel
def batched_mma(a, b, c, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):
    # a: (batch, M, K), b: (K, N) shared by every batch entry (a 2-D operand broadcasts).
    z = ct.bid(0)
    x = ct.load(a, index=(z, 0, 0), shape=(2, TM, TK), padding_mode=ct.PaddingMode.ZERO)
    y = ct.load(b, index=(0, 0), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
    acc = ct.zeros((2, TM, TN), dtype=ct.float32)
    ct.store(c, index=(z, 0, 0), tile=ct.mma(x, y, acc))


@ct.kernel
def transposed_mma(a, bt, c, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):
    # bt holds B transposed (N, K); order=(1, 0) loads it as a (TK, TN) tile.
    i = ct.bid(0)
    x = ct.load(a, index=(i, 0), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
    y = ct.load(bt, index=(0, 0), shape=(TK, TN), order=(1, 0), padding_mode=ct.PaddingMode.ZERO)
    acc = ct.full((TM, TN), 0, dtype=ct.float32)
    ct.store(c, index=(i, 0), tile=ct.mma(x, y, acc))


@ct.kernel
def broadcast_batch_mma(a, b, c, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):
    # a: (1, M, K), b: (batch, K, N): a's batch dim of 1 broadcasts over b's two entries.
    z = ct.bid(0)
    x = ct.load(a, index=(0, 0, 0), shape=(1, TM, TK), padding_mode=ct.PaddingMode.ZERO)
    y = ct.load(b, index=(z, 0, 0), shape=(2, TK, TN), padding_mode=ct.PaddingMode.ZERO)
    ct.store(c, index=(z, 0, 0), tile=ct.mma(x, y, ct.zeros((2, TM, TN), dtype=ct.float32)))


@ct.kernel
def transpose_operand_mma(a, bt, c, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):
    # bt holds B transposed (N, K), loaded as it lies and turned with ct.transpose.
    i = ct.bid(0)
    x = ct.load(a, index=(i, 0), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
    y = ct.transpose(ct.load(bt, index=(0, 0), shape=(TN, TK), padding_mode=ct.PaddingMode.ZERO))
    ct.store(c, index=(i, 0), tile=ct.mma(x, y, ct.zeros((TM, TN), dtype=ct.float32)))
