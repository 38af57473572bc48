# Grouped axpy over lists of arrays: out[g] = alpha * xs[g] + ys[g] for every group g, where the
# groups have different lengths. Block j handles tile j of every group that is that long; the
# group is picked with a run-time index into the lists (cuTile `list` parameters).
import cuda.tile as ct


@ct.kernel
def grouped_axpy(xs, ys, outs, alpha: float, TILE: ct.Constant[int]):
    j = ct.bid(0)
    for g in range(len(xs)):
        x = xs[g]
        y = ys[g]
        out = outs[g]
        if j < ct.num_tiles(x, axis=0, shape=(TILE,)):
            a = ct.load(x, index=(j,), shape=(TILE,))
            b = ct.load(y, index=(j,), shape=(TILE,))
            ct.store(out, index=(j,), tile=(alpha * a.astype(ct.float32) + b.astype(ct.float32)).astype(out.dtype))
