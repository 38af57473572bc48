"""Ragged segments through Array.slice: X holds several segments of rows back to back, segment b
being rows offsets[b] .. offsets[b+1] (a CSR-style offsets array of length S + 1). Block (b, j)
takes the view seg = X.slice(0, start, stop) and works on it alone: tiles past the segment's end
are masked by the view's extent, so neighbouring segments are never read or written.

    segment_sum     sums[b, :] = column sums of segment b
    segment_center  Y's segment b = X's segment b minus its column means (a store through a slice)

Launch: grid = (S, ct.cdiv(N, TN))
"""
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def segment_sum(X, offsets, sums, TM: ConstInt, TN: ConstInt):
    b, j = ct.bid(0), ct.bid(1)
    start = ct.load(offsets, index=(b,), shape=())
    stop = ct.load(offsets, index=(b + 1,), shape=())
    seg = X.slice(0, start, stop)
    acc = ct.zeros((TN,), dtype=ct.float32)
    for i in range(ct.num_tiles(seg, axis=0, shape=(TM, TN))):
        t = ct.load(seg, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
        acc += ct.sum(t.astype(ct.float32), axis=0)
    ct.store(sums, index=(b, j), tile=acc.reshape((1, TN)).astype(sums.dtype))


@ct.kernel
def segment_center(X, offsets, Y, TM: ConstInt, TN: ConstInt):
    b, j = ct.bid(0), ct.bid(1)
    start = ct.load(offsets, index=(b,), shape=())
    stop = ct.load(offsets, index=(b + 1,), shape=())
    x_seg = X.slice(axis=0, start=start, stop=stop)
    y_seg = Y.slice(axis=0, start=start, stop=stop)
    rows = x_seg.shape[0]
    acc = ct.zeros((1, TN), dtype=ct.float32)
    for i in range(ct.cdiv(rows, TM)):
        t = ct.load(x_seg, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
        acc += ct.sum(t.astype(ct.float32), axis=0, keepdims=True)
    mean = acc / ct.maximum(rows, 1)
    for i in range(ct.cdiv(rows, TM)):
        t = ct.load(x_seg, index=(i, j), shape=(TM, TN))
        ct.store(y_seg, index=(i, j), tile=(t.astype(ct.float32) - mean).astype(Y.dtype))
