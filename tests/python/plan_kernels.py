"""Kernels for test_launch_plan.py: scalar parameters of every size between arrays, so that the
kernel parameter buffer has padding to get right."""

import cuda.tile as ct


@ct.kernel
def mixed(x, flag, n, h, b, f, d, y, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid, 0), shape=(1, TILE)).astype(ct.float32)
    s = t * f + h.astype(ct.float32) + b.astype(ct.float32)
    if flag:
        s = s + n + d.astype(ct.float32)
    ct.store(y, index=(bid, 0), tile=s.astype(ct.float32))


@ct.kernel
def rows(x, y, TILE: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0), 0), shape=(1, TILE))
    ct.store(y, index=(ct.bid(0), 0), tile=t - ct.max(t, axis=1, keepdims=True))


@ct.kernel
def listed(xs, y, TILE: ct.Constant[int]):
    t = ct.load(xs[0], index=(ct.bid(0),), shape=(TILE,))
    ct.store(y, index=(ct.bid(0),), tile=t)


@ct.kernel
def scaled(x, s, y, TILE: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.store(y, index=(ct.bid(0),), tile=t * ct.load(s, index=(), shape=()))
