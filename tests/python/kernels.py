"""Kernels the launcher tests compile (module level, as tile2cu needs)."""
import cuda.tile as ct
from cuda.tile import Constant

ConstInt = ct.Constant[int]


@ct.kernel
def copy(x, y, TILE: Constant[int]):
    b = ct.bid(0)
    ct.store(y, index=(b,), tile=ct.load(x, index=(b,), shape=(TILE,)))


@ct.kernel(occupancy=2)
def axpy(x, y, alpha: float, TILE: ConstInt):
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(TILE,)) * alpha + ct.load(y, index=(b,), shape=(TILE,))
    ct.store(y, index=(b,), tile=t.astype(y.dtype))


@ct.kernel
def grouped_scale(xs, ys, alpha: float, TILE: ConstInt):
    """ys[g] = alpha * xs[g] for every group g (lists of arrays of different lengths)."""
    b = ct.bid(0)
    for g in range(len(xs)):
        x = xs[g]
        if b < ct.num_tiles(x, axis=0, shape=(TILE,)):
            ct.store(ys[g], index=(b,), tile=ct.load(x, index=(b,), shape=(TILE,)) * alpha)


@ct.kernel
def scaled_pair(io, scale, TILE: ConstInt):
    """A tuple parameter of an array and a (array, scalar) tuple, and one of two scalars."""
    src, (dst, n) = io
    factor, bias = scale
    b = ct.bid(0)
    t = ct.load(src, index=(b,), shape=(TILE,))
    ct.store(dst, index=(b,), tile=t * factor + bias + n)


@ct.kernel
def everything(a, flag, count, wide: ct.ScalarInt64, ratio, SHAPE: ct.Constant, F: ConstInt):
    pass


@ct.kernel
def bad_shapes(x, y, TILE: ConstInt):
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(TILE,)) + ct.load(y, index=(b,), shape=(2 * TILE,))
    ct.store(y, index=(b,), tile=t)


def make_nested():
    @ct.kernel
    def nested(x):
        pass
    return nested


axpy4 = axpy.replace_hints(occupancy=4)     # launched by this name, built with occupancy 4


@ct.kernel
def scale_by_cell_1d(x, y, s, TILE: ConstInt):
    """y = x * s[0] with s a 1-element array; x may be float8 (computed in float32)."""
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(TILE,)).astype(ct.float32)
    ct.store(y, index=(b,), tile=t * ct.load(s, index=(0,), shape=(1,)))


@ct.kernel
def scale_by_cell(x, y, s, TILE: ConstInt):
    """y = x * s[()] with s a 0-d array; x may be float8 (computed in float32)."""
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(TILE,)).astype(ct.float32)
    ct.store(y, index=(b,), tile=t * ct.load(s, index=(), shape=()))
