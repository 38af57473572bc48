"""Layer norm, forward and backward (the backward in two kernels, with a cross-block lock).

Forward, one block per row, the row a single (1, TN) tile (TN >= the number of columns N):
    y = (x - mean) * rstd * w + b,   rstd = 1 / sqrt(var + eps)
and the row's mean and rstd are saved for the backward pass.

Backward, kernel 1 (one block per row): dx, and this row's share of dw = sum(dy * xhat) and
db = sum(dy) over rows. Rows are split into G groups (row % G); each group has a (1, N) slot in
the partial buffers dw_part / db_part, guarded by a spin lock in `locks[g]`. A block takes the
lock with atomic_cas (ACQUIRE), adds its share to the slot (the first block of the group, seen
through `count[g]`, writes instead of adding), and releases the lock with atomic_xchg (RELEASE).
The atomics have a scalar index: they run once per block and every thread sees the result.
Kernel 2 sums the G partial rows per column block.

Launch: fwd grid = (M,); bwd_dx grid = (M,), locks and count zeroed first;
        bwd_dwdb grid = (ct.cdiv(N, TN),)

The forward kernel asks for no occupancy: tile2cu runs a row of 8192 on 512 threads, and for
kernels that load three such tiles (x, w, b) asks for three blocks per SM in the copy for whole
rows (40 registers a thread), not in the copy for ragged rows (docs/perf-notes.md, round 14).
"""
import cuda.tile as ct

ZERO = ct.PaddingMode.ZERO


def row_tile(a, row, TN):
    return ct.load(a, index=(row, 0), shape=(1, TN), padding_mode=ZERO).astype(ct.float32)


def vector_tile(a, TN):
    return ct.load(a, index=(0,), shape=(TN,), padding_mode=ZERO).astype(ct.float32)[None, :]


@ct.kernel
def layer_norm_fwd(x, w, b, y, mean_out, rstd_out, eps: float, TN: ct.Constant[int]):
    row = ct.bid(0)
    n = x.shape[1]
    t = row_tile(x, row, TN)
    mean = ct.sum(t, axis=1, keepdims=True) / n
    inside = ct.arange(TN, dtype=ct.int32)[None, :] < n
    centered = ct.where(inside, t - mean, 0.0)
    rstd = ct.rsqrt(ct.sum(centered * centered, axis=1, keepdims=True) / n + eps)
    out = centered * rstd * vector_tile(w, TN) + vector_tile(b, TN)
    ct.store(y, index=(row, 0), tile=out.astype(y.dtype))
    ct.store(mean_out, index=(row,), tile=mean.item())
    ct.store(rstd_out, index=(row,), tile=rstd.item())


def take_lock(locks, g):
    while ct.atomic_cas(locks, g, 0, 1, memory_order=ct.MemoryOrder.ACQUIRE) == 1:
        pass


def give_lock(locks, g):
    ct.atomic_xchg(locks, g, 0, memory_order=ct.MemoryOrder.RELEASE)


@ct.kernel
def layer_norm_bwd_dx(dy, x, w, mean, rstd, dx, dw_part, db_part, locks, count,
                      TN: ct.Constant[int]):
    row = ct.bid(0)
    n = x.shape[1]
    inside = ct.arange(TN, dtype=ct.int32)[None, :] < n
    r = ct.gather(rstd, row)
    xhat = ct.where(inside, (row_tile(x, row, TN) - ct.gather(mean, row)) * r, 0.0)
    g_out = row_tile(dy, row, TN)
    wdy = vector_tile(w, TN) * g_out
    c1 = ct.sum(xhat * wdy, axis=1, keepdims=True) / n
    c2 = ct.sum(wdy, axis=1, keepdims=True) / n
    ct.store(dx, index=(row, 0), tile=((wdy - (xhat * c1 + c2)) * r).astype(dx.dtype))

    # This row's share of dw and db, added to its group's slot under the group's lock.
    g = row % dw_part.shape[0]
    dw = g_out * xhat
    db = g_out
    take_lock(locks, g)
    if ct.gather(count, g) == 0:
        ct.scatter(count, g, 1)
    else:
        dw = dw + ct.load(dw_part, index=(g, 0), shape=(1, TN), padding_mode=ZERO)
        db = db + ct.load(db_part, index=(g, 0), shape=(1, TN), padding_mode=ZERO)
    ct.store(dw_part, index=(g, 0), tile=dw)
    ct.store(db_part, index=(g, 0), tile=db)
    give_lock(locks, g)


@ct.kernel
def layer_norm_bwd_dwdb(dw_part, db_part, dw, db, TG: ct.Constant[int], TN: ct.Constant[int]):
    col = ct.bid(0)
    acc_w = ct.zeros((TG, TN), dtype=ct.float32)
    acc_b = ct.zeros((TG, TN), dtype=ct.float32)
    for i in range(ct.cdiv(dw_part.shape[0], TG)):
        acc_w += ct.load(dw_part, index=(i, col), shape=(TG, TN), padding_mode=ZERO)
        acc_b += ct.load(db_part, index=(i, col), shape=(TG, TN), padding_mode=ZERO)
    ct.store(dw, index=(col,), tile=ct.sum(acc_w, axis=0).astype(dw.dtype))
    ct.store(db, index=(col,), tile=ct.sum(acc_b, axis=0).astype(db.dtype))
