"""Online softmax over rows longer than one tile: y[i, :] = softmax(x[i, :]).

One block per row. A first pass reads the row's column tiles once, carrying the running
maximum m and the running sum l of exp(x - m) through the loop as one tuple, state = (m, l):
when a tile raises the maximum, the sum so far is rescaled by exp(m_old - m_new) (the online
normalizer of Milakov and Gimelshein). A second pass writes exp(x - m) / l. Lanes past the end
of the row load as -inf and add exp(-inf) = 0. The arithmetic runs in float32 whatever the
input dtype.

Launch: grid = (n_rows,)
"""
import cuda.tile as ct


def online_update(state, t):
    """The running (max, sum of exp(x - max)) after one more tile of the row."""
    m, l = state
    m_new = ct.maximum(m, ct.max(t, axis=1, keepdims=True))
    l_new = l * ct.exp(m - m_new) + ct.sum(ct.exp(t - m_new), axis=1, keepdims=True)
    return m_new, l_new


@ct.kernel
def online_softmax(x, y, TN: ct.Constant[int]):
    row = ct.bid(0)
    n_tiles = ct.num_tiles(x, axis=1, shape=(1, TN))
    state = (ct.full((1, 1), -float("inf"), dtype=ct.float32), ct.zeros((1, 1), dtype=ct.float32))
    for j in range(n_tiles):
        t = ct.load(x, index=(row, j), shape=(1, TN), padding_mode=ct.PaddingMode.NEG_INF)
        state = online_update(state, t.astype(ct.float32))
    m, l = state
    for j in range(n_tiles):
        t = ct.load(x, index=(row, j), shape=(1, TN)).astype(ct.float32)
        ct.store(y, index=(row, j), tile=(ct.exp(t - m) / l).astype(y.dtype))
