"""attention on rank-4 arrays (batch, heads, seq, D): samples/attention.py with a batch axis; see check.py."""
import cuda.tile as ct

INV_LN2 = 1.4426950408889634  # exp(x) = exp2(x / ln 2): the scores are scaled once, in log2 units


@ct.kernel(occupancy=2)
def attention_fwd(Q, K, V, O, scale: float, BM: ct.Constant[int], BN: ct.Constant[int],
                  D: ct.Constant[int], CAUSAL: ct.Constant[bool]):
    block = ct.bid(0)
    head = ct.bid(1)
    batch = ct.bid(2)
    seq = Q.shape[2]
    q = ct.load(Q, index=(batch, head, block, 0), shape=(1, 1, BM, D), padding_mode=ct.PaddingMode.ZERO)
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
        kt = ct.load(K, index=(batch, head, 0, j), shape=(1, 1, D, BN), order=(0, 1, 3, 2), padding_mode=ct.PaddingMode.ZERO)
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
        v = ct.load(V, index=(batch, head, j, 0), shape=(1, 1, BN, D), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(p.astype(Q.dtype), v.reshape((BN, D)), acc * alpha)
        m = m_new
    out = acc / l
    ct.store(O, index=(batch, head, block, 0), tile=out.astype(O.dtype).reshape((1, 1, BM, D)))
