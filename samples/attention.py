"""Flash-attention forward: O = softmax(Q K^T * scale [+ causal mask]) V, one (BM, D) block of
queries per CTA, walking the keys in BN-row tiles with an online softmax (running max m and
running sum l, rescaling the accumulator when the max grows), so the S x S score matrix never
exists in memory.

Q, K, V, O: (batch * heads, seq, D). K is read transposed straight from memory with
order=(0, 2, 1). Rows past the sequence end are zero-padded; their scores are masked to -inf.

Launch: grid = (ct.cdiv(seq, BM), batch * heads)

tile2cu recognises the key loop and runs it as one flash-attention main loop (wgmma on sm_90a
for BM = 128, mma.sync elsewhere). occupancy=2 asks for two CTAs per SM: on H100 the wgmma loop
then overlaps one CTA's softmax with the other's matrix products (296 vs 233 TFLOP/s at d128,
docs/attention-notes.md).
"""
import cuda.tile as ct

INV_LN2 = 1.4426950408889634  # exp(x) = exp2(x / ln 2): the scores are scaled once, in log2 units


@ct.kernel(occupancy=2)
def attention_fwd(Q, K, V, O, scale: float, BM: ct.Constant[int], BN: ct.Constant[int],
                  D: ct.Constant[int], CAUSAL: ct.Constant[bool]):
    block = ct.bid(0)
    head = ct.bid(1)
    seq = Q.shape[1]
    q = ct.load(Q, index=(head, block, 0), shape=(1, BM, D), padding_mode=ct.PaddingMode.ZERO)
    q = q.reshape((BM, D))
    m = ct.full((BM, 1), -float("inf"), dtype=ct.float32)
    l = ct.zeros((BM, 1), dtype=ct.float32)
    acc = ct.zeros((BM, D), dtype=ct.float32)
    qk_scale = scale * INV_LN2
    rows = block * BM + ct.arange(BM, dtype=ct.int32).reshape((BM, 1))
    key_tiles = ct.cdiv(seq, BN)
    if CAUSAL:
        key_tiles = ct.cdiv(min((block + 1) * BM, seq), BN)
    for j in range(key_tiles):
        kt = ct.load(K, index=(head, 0, j), shape=(1, D, BN), order=(0, 2, 1), padding_mode=ct.PaddingMode.ZERO)
        s = ct.mma(q, kt.reshape((D, BN)), ct.zeros((BM, BN), dtype=ct.float32)) * qk_scale
        cols = j * BN + ct.arange(BN, dtype=ct.int32).reshape((1, BN))
        keep = cols < seq
        if CAUSAL:
            keep = keep & (cols <= rows)
        s = ct.where(keep, s, -float("inf"))
        m_new = ct.maximum(m, ct.max(s, axis=1, keepdims=True))
        p = ct.exp2(s - m_new)
        alpha = ct.exp2(m - m_new)
        l = l * alpha + ct.sum(p, axis=1, keepdims=True)
        v = ct.load(V, index=(head, j, 0), shape=(1, BN, D), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(p.astype(Q.dtype), v.reshape((BN, D)), acc * alpha)
        m = m_new
    out = acc / l
    ct.store(O, index=(head, block, 0), tile=out.astype(O.dtype).reshape((1, BM, D)))
