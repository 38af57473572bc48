"""reshape, permute, transpose, broadcast_to, expand_dims, cat, extract and the factories."""
import numpy as np

from . import numerics as nx
from .tile import Tile, as_tile, constant, dtype_name


def const_int(v):
    return v if isinstance(v, int) else int(v)


def shape_tuple(shape):
    if isinstance(shape, (int, Tile)):
        return (const_int(shape),)
    return tuple(const_int(d) for d in shape)


def reshape(t, shape):
    return Tile(t.data.reshape(shape_tuple(shape)), t.dtype)


def permute(t, axes):
    return Tile(np.transpose(t.data, tuple(axes)), t.dtype)


def transpose(t, axis0=None, axis1=None):
    if axis0 is None and axis1 is None:
        if t.ndim != 2:
            raise nx.NotModelled("transpose() without axes of a tile that is not 2-D")
        axis0, axis1 = 0, 1
    return Tile(np.swapaxes(t.data, axis0, axis1), t.dtype)


def broadcast_to(t, shape):
    t = as_tile(t)
    return Tile(np.broadcast_to(t.data, shape_tuple(shape)).copy(), t.dtype)


def expand_dims(t, axis):
    return Tile(np.expand_dims(t.data, axis), t.dtype)


def cat(tiles, axis):
    tiles = list(tiles)
    if len(tiles) == 1:
        return tiles[0]
    a, b = tiles
    return Tile(np.concatenate([a.data, b.data], axis=axis), a.dtype)


def extract(t, index, shape):
    index = (index,) if not isinstance(index, tuple) else index
    shape = shape_tuple(shape)
    if shape == ():
        return Tile(t.data[tuple(int(i) for i in index)], t.dtype)
    sl = tuple(slice(int(i) * s, (int(i) + 1) * s) for i, s in zip(index, shape))
    if any(int(i) < 0 or (int(i) + 1) * s > d for i, s, d in zip(index, shape, t.shape)):
        raise nx.UndefinedBehaviour(f"extract index {index} out of range")
    return Tile(t.data[sl].copy(), t.dtype)


# ---- factories --------------------------------------------------------------------------------
def full(shape, fill_value, dtype):
    dtype = dtype_name(dtype)
    shape = shape_tuple(shape)
    if isinstance(fill_value, Tile):
        v = Tile(nx.cast(fill_value.data, fill_value.dtype, dtype), dtype)
    else:
        v = constant(fill_value, dtype)
    return Tile(np.broadcast_to(v.data, shape).copy(), dtype)


def zeros(shape, dtype):
    return full(shape, 0, dtype)


def ones(shape, dtype):
    return full(shape, 1, dtype)


def arange(size, *, dtype, start=0, step=1):
    """start + k * step, computed as int32 iota then converted (c.3)."""
    dtype = dtype_name(dtype)
    k = Tile(np.arange(const_int(size), dtype=np.int32), "int32")
    from .tile import binary
    r = binary("+", binary("*", k, step) if not (isinstance(step, int) and step == 1) else k, start)
    return r.astype(dtype) if isinstance(r, Tile) else as_tile(r).astype(dtype)
