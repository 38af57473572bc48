"""Arrays of the reference and cuTile's memory operations on them (c.2).

An Array is a view (per-axis start and extent) of a host NumPy buffer. Every element written
remembers the block that wrote it last and which operation did. Blocks run concurrently on the
GPU, so an element may end with the *last* value any block wrote there: when two blocks' last
values differ (whatever the values written in between), or one scatter writes two values to one
element, the element is *racy* (the GPU may keep either), and compare.py skips it. An atomic on an element another block's atomic touched
is order-dependent (its old values and, for xchg/cas and float add, the final value): the case
is then undefined here, not compared."""
import numpy as np

from . import numerics as nx
from .numerics import BOOL, UndefinedBehaviour
from .tile import Tile, as_tile, dtype_name, typed_for_literal

PADDING = {"ZERO": 0.0, "NEG_ZERO": -0.0, "NAN": np.nan, "POS_INF": np.inf, "NEG_INF": -np.inf}


class Buffer:
    """A kernel argument's storage and what the run did to it."""

    def __init__(self, data, dtype):
        self.data = data
        self.dtype = dtype
        self.writer = np.full(data.shape, -1, dtype=np.int64)   # block that wrote last
        self.write_op = np.full(data.shape, -1, dtype=np.int64)  # operation that wrote last
        self._racy = np.zeros(data.shape, dtype=bool)
        self.atomic_block = np.full(data.shape, -1, dtype=np.int64)
        # the last value the blocks before the current writer left (all equal, or _racy is set)
        self.earlier_last = np.zeros_like(data)
        self.has_earlier = np.zeros(data.shape, dtype=bool)

    @property
    def racy(self):
        """Elements whose final value depends on the blocks' order: the last values two blocks
        left differ (the current writer's last value is the element's value now)."""
        return self._racy | (self.has_earlier & ~_same(self.earlier_last, self.data))

    def note_writer(self, positions, block):
        """Before `block` writes at positions: a block taking over an element from another one
        leaves that block's last value behind; it is compared with the other blocks' last ones."""
        writer = self.writer[positions]
        handover = (writer >= 0) & (writer != block)
        if not handover.any():
            return
        pos = tuple(p[handover] for p in positions)
        left = self.data[pos]
        self._racy[pos] |= self.has_earlier[pos] & ~_same(self.earlier_last[pos], left)
        self.earlier_last[pos] = left
        self.has_earlier[pos] = True


def _same(a, b):
    return (a == b) | (_isnan(a) & _isnan(b))


class Context:
    """The block being run and a counter of memory operations (for the race tracking)."""
    block = 0
    op = 0


CTX = Context()


class Array:
    def __init__(self, buffer, start=None, extent=None):
        self.buffer = buffer
        self.dtype = buffer.dtype
        self.start = tuple(start) if start else (0,) * buffer.data.ndim
        self.extent = tuple(extent) if extent else buffer.data.shape

    @property
    def ndim(self):
        return len(self.extent)

    @property
    def shape(self):
        return tuple(Tile(np.int32(e), "int32") for e in self.extent)

    @property
    def strides(self):
        """Element strides of the (C-contiguous) buffer, as the C entry point is given them."""
        data = self.buffer.data
        return tuple(Tile(np.int32(s // data.itemsize), "int32") for s in data.strides)

    def slice(self, axis, start, stop):
        axis = axis % self.ndim
        start, stop = int(start), int(stop)
        if not (0 <= start < self.extent[axis] and start <= stop <= self.extent[axis]):
            raise UndefinedBehaviour(f"slice({axis}, {start}, {stop}) of extent {self.extent[axis]}")
        s, e = list(self.start), list(self.extent)
        s[axis] += start
        e[axis] = stop - start
        return Array(self.buffer, s, e)

    def region(self):
        return tuple(slice(s, s + e) for s, e in zip(self.start, self.extent))

    def view(self):
        return self.buffer.data[self.region()]


def _order(order, rank):
    if order == "C" or order is None:
        return tuple(range(rank))
    if order == "F":
        return tuple(reversed(range(rank)))
    return tuple(order)


def _index(index, rank):
    index = index if isinstance(index, tuple) else (index,)
    if len(index) != rank:
        raise nx.NotModelled(f"index of length {len(index)} for rank {rank}")
    return tuple(int(i) for i in index)


def _tile_window(array, index, shape, order):
    """Per tile axis k: the array axis it walks and the element range [lo, lo + shape[k])."""
    order = _order(order, array.ndim)
    window = []
    entirely_outside = False
    for k, (i, s) in enumerate(zip(index, shape)):
        lo = i * s
        ax = order[k]
        if i < 0 or lo >= array.extent[ax]:
            entirely_outside = True
        window.append((ax, lo, s))
    return window, entirely_outside


def load(array, index, shape, *, order="C", padding_mode=None, check_bounds=True, latency=None,
         allow_tma=None, memory_order=None, memory_scope=None):
    from .shape_ops import shape_tuple
    shape = shape_tuple(shape)
    index = _index(index, array.ndim)
    window, outside = _tile_window(array, index, shape, order)
    if outside:
        raise UndefinedBehaviour(f"load of tile {index} (shape {shape}) lies entirely outside {array.extent}")
    view = array.view()
    perm = [ax for ax, _, _ in window]
    moved = np.transpose(view, perm)
    inside = tuple(slice(lo, min(lo + s, array.extent[ax])) for ax, lo, s in window)
    part = moved[inside]
    if part.shape == shape:
        return Tile(part.copy(), array.dtype)
    mode = getattr(padding_mode, "name", "UNDETERMINED")
    if mode not in PADDING:
        raise UndefinedBehaviour(f"load of a ragged tile {index} with undetermined padding")
    out = np.empty(shape, dtype=view.dtype)
    pad = PADDING[mode]
    out[...] = pad if nx.is_float(array.dtype) else 0
    out[tuple(slice(0, n) for n in part.shape)] = part
    return Tile(out, array.dtype)


def _implicit(value, dtype):
    """A value written into an array of dtype: cast (the generator keeps it lossless)."""
    if not isinstance(value, Tile):
        return Tile(as_tile(value, dtype).data, dtype) if typed_for_literal(dtype, value) == dtype \
            else as_tile(value).astype(dtype)
    return value if value.dtype == dtype else value.astype(dtype)


def _write(buffer, positions, values):
    """Write values at positions (a tuple of index arrays into the buffer), tracking races."""
    op = CTX.op
    CTX.op += 1
    if positions[0].size == 0:
        return
    data = buffer.data
    flat = np.ravel_multi_index(positions, data.shape)
    uniq, first, counts = np.unique(flat, return_index=True, return_counts=True)
    if (counts > 1).any():  # one scatter writing one element twice: the GPU keeps either value
        dup = uniq[counts > 1]
        for f in dup:
            vals = values[flat == f]
            if not (np.all(vals == vals[0]) or np.all(_isnan(vals))):
                buffer._racy.flat[f] = True
    buffer.note_writer(positions, CTX.block)
    data[positions] = values
    buffer.writer[positions] = CTX.block
    buffer.write_op[positions] = op


def _isnan(v):
    return np.isnan(v) if v.dtype.kind == "f" else np.zeros(v.shape, dtype=bool)


def store(array, index, tile, *, order="C", check_bounds=True, latency=None, allow_tma=None,
          memory_order=None, memory_scope=None):
    value = _implicit(tile, array.dtype)
    if value.ndim == 0:
        value = Tile(value.data.reshape((1,) * array.ndim), value.dtype)
    shape = value.shape
    index = _index(index, array.ndim)
    window, outside = _tile_window(array, index, shape, order)
    if outside:
        raise UndefinedBehaviour(f"store of tile {index} (shape {shape}) lies entirely outside {array.extent}")
    # element t[u] goes to array position e with e[order[k]] = index[k] * shape[k] + u[k]
    grids = np.meshgrid(*[np.arange(s) for s in shape], indexing="ij")
    pos = [None] * array.ndim
    keep = np.ones(shape, dtype=bool)
    for k, (ax, lo, s) in enumerate(window):
        p = grids[k] + lo
        keep &= p < array.extent[ax]
        pos[ax] = p + array.start[ax]
    positions = tuple(p[keep] for p in pos)
    _write(array.buffer, positions, value.data[keep])


def _gather_index(array, indices):
    """(absolute positions, in-bounds mask, result shape) of an element-indexed access."""
    indices = indices if isinstance(indices, tuple) else (indices,)
    if len(indices) != array.ndim:
        raise nx.NotModelled(f"{len(indices)} index tiles for rank {array.ndim}")
    tiles = [as_tile(i) for i in indices]
    shape = np.broadcast_shapes(*[t.shape for t in tiles])
    pos, ok = [], np.ones(shape, dtype=bool)
    for ax, t in enumerate(tiles):
        v = np.broadcast_to(t.data, shape)
        if t.dtype in ("uint64",):
            v = v.astype(np.uint64)
            inb = v < np.uint64(array.extent[ax])
            v = np.where(inb, v, 0).astype(np.int64)
        else:
            v = v.astype(np.int64)
            inb = (v >= 0) & (v < array.extent[ax])  # negative: out of bounds (compared unsigned)
            v = np.where(inb, v, 0)
        ok &= inb
        pos.append(v + array.start[ax])
    return pos, ok, shape


def _mask(mask, shape):
    if mask is None:
        return np.ones(shape, dtype=bool)
    m = as_tile(mask)
    return np.broadcast_to(m.data.astype(bool), shape)


def gather(array, indices, *, mask=None, padding_value=0, check_bounds=True, latency=None):
    pos, ok, shape = _gather_index(array, indices)
    ok = ok & _mask(mask, shape)
    pad = _implicit(padding_value, array.dtype)
    out = np.empty(shape, dtype=array.buffer.data.dtype)
    out[...] = np.broadcast_to(pad.data, shape)
    sel = tuple(p[ok] for p in pos)
    out[ok] = array.buffer.data[sel]
    return Tile(out, array.dtype)


def scatter(array, indices, value, *, mask=None, check_bounds=True, latency=None):
    pos, ok, shape = _gather_index(array, indices)
    ok = ok & _mask(mask, shape)
    v = np.broadcast_to(_implicit(value, array.dtype).data, shape)
    _write(array.buffer, tuple(p[ok] for p in pos), v[ok])


def atomic(kind, array, indices, update, expected=None, *, check_bounds=True, memory_order=None,
           memory_scope=None):
    """One atomic read-modify-write per lane, lanes in order; returns the old values."""
    pos, ok, shape = _gather_index(array, indices)
    if not ok.all():
        raise UndefinedBehaviour(f"atomic_{kind} with out-of-bounds lanes (their results are undefined)")
    buf = array.buffer
    flat_pos = tuple(p.reshape(-1) for p in pos)
    touched = buf.atomic_block[flat_pos]
    if ((touched >= 0) & (touched != CTX.block)).any():
        raise UndefinedBehaviour(f"atomic_{kind} on elements another block's atomics touched (order-dependent)")
    buf.atomic_block[flat_pos] = CTX.block
    upd = np.broadcast_to(_implicit(update, array.dtype).data, shape).reshape(-1)
    exp = None if expected is None else np.broadcast_to(_implicit(expected, array.dtype).data, shape).reshape(-1)
    old = np.empty(upd.shape, dtype=buf.data.dtype)
    d = array.dtype
    for lane in range(upd.size):
        where = tuple(p[lane] for p in flat_pos)
        cur = buf.data[where]
        old[lane] = cur
        buf.note_writer(tuple(np.array([w]) for w in where), CTX.block)
        buf.data[where] = _rmw(kind, cur, upd[lane], None if exp is None else exp[lane], d)
        buf.writer[where] = CTX.block
    return Tile(old.reshape(shape), d)


def _rmw(kind, cur, upd, exp, dtype):
    with np.errstate(all="ignore"):
        if kind == "add":
            if nx.is_float(dtype):
                return nx.round_float(np.float64(cur) + np.float64(upd), dtype)
            if nx.BITS[dtype] <= 32:
                return nx.wrap_int(np.int64(cur) + np.int64(upd), dtype)
            return cur + upd
        if kind == "max":
            return max(cur, upd)
        if kind == "min":
            return min(cur, upd)
        if kind == "and":
            return cur & upd
        if kind == "or":
            return cur | upd
        if kind == "xor":
            return cur ^ upd
        if kind == "xchg":
            return upd
        if kind == "cas":
            return upd if cur == exp else cur
    raise nx.NotModelled(f"atomic_{kind}")


def make_buffer(data, dtype):
    dtype = dtype_name(dtype)
    return Buffer(np.asarray(data, dtype=nx.STORAGE[dtype]), dtype)


__all__ = ["Array", "Buffer", "CTX", "load", "store", "gather", "scatter", "atomic", "make_buffer", "BOOL"]
