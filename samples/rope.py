"""Rotary position embedding (the "rotate half" form used by Llama and GPT-NeoX).

x holds (heads, seq, D) vectors; cos and sin hold (seq, D // 2) angles. Each vector's two halves
x1 = x[..., :D/2] and x2 = x[..., D/2:] become
    y = cat(x1 * cos - x2 * sin,  x2 * cos + x1 * sin).
Block (s, h) rotates positions [s*TS, (s+1)*TS) of head h: ct.extract picks the halves and
ct.cat joins the rotated halves again.

Launch: grid = (ct.cdiv(seq, TS), heads)
"""
import cuda.tile as ct


@ct.kernel
def rope(x, cos, sin, y, TS: ct.Constant[int], D: ct.Constant[int]):
    s = ct.bid(0)
    h = ct.bid(1)
    HALF = D // 2
    t = ct.load(x, index=(h, s, 0), shape=(1, TS, D)).reshape((TS, D))
    x1 = ct.extract(t, index=(0, 0), shape=(TS, HALF)).astype(ct.float32)
    x2 = ct.extract(t, index=(0, 1), shape=(TS, HALF)).astype(ct.float32)
    c = ct.load(cos, index=(s, 0), shape=(TS, HALF))
    sn = ct.load(sin, index=(s, 0), shape=(TS, HALF))
    rotated = ct.cat((x1 * c - x2 * sn, x2 * c + x1 * sn), axis=1)
    ct.store(y, index=(h, s, 0), tile=rotated.astype(y.dtype).reshape((1, TS, D)))
