"""A generated program's arguments: extents, grid, random inputs and poisoned outputs.

The generator's GPU-safe mode writes a `# extents:` header naming, per array parameter and axis,
how the kernel reaches that axis: `t<N>` (tiles of N elements, at tile indices 0..MAX_INDEX),
`t<N>s` (the same through an Array.slice starting at most at MAX_INDEX) or `g<N>` (element
indices base * N + arange(N), base at most MAX_INDEX). Extents are chosen from it so that every
tile has at least one element inside (MAX_INDEX * N + 1 .. (MAX_INDEX + 1) * N, ragged or not)
and atomics stay in bounds; int32 scalar parameters (loop bounds, limits) are 0..MAX_INDEX."""
import re

import numpy as np

from . import memory, numerics as nx
from .tile import constant

MAX_INDEX = 4  # the largest tile index a GPU-safe program reaches (tilegen's gpu_safe mode)


def split_top(text):
    parts, depth, cur = [], 0, []
    for ch in text:
        depth += ch in "(["
        depth -= ch in ")]"
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def parse_signature(sig):
    """name -> ("array", dtype, dims [None = dynamic], flags) | ("scalar", dtype) | ("const", value)."""
    params = {}
    for item in split_top(sig):
        name, _, text = item.partition("=")
        text = text.strip()
        m = re.fullmatch(r"(\w+)\[([^\]]*)\]\s*(.*)", text)
        if m:
            dims = [None if d.strip() == "?" else int(d) for d in m.group(2).split(",") if d.strip()]
            params[name.strip()] = ("array", m.group(1), dims, m.group(3).split())
        elif text in nx.STORAGE:
            params[name.strip()] = ("scalar", text)
        else:
            import ast
            params[name.strip()] = ("const", ast.literal_eval(text))
    return params


def header(source, key):
    m = re.search(rf"^# {key}: (.*)$", source, re.M)
    return m.group(1).strip() if m else None


def parse_extents(source):
    """name -> list of per-axis hints ('t', N, sliced) / ('g', N, False) from `# extents:`."""
    text = header(source, "extents") or ""
    hints = {}
    for item in text.split():
        name, _, axes = item.partition("=")
        hints[name] = []
        for a in axes.split(","):
            m = re.fullmatch(r"([tg])(\d+)(s?)", a)
            hints[name].append((m.group(1), int(m.group(2)), bool(m.group(3))) if m else None)
    return hints


def written_arrays(source):
    """Array parameters the kernel writes: store / scatter targets and atomic targets."""
    stores = set(re.findall(r"ct\.(?:store|scatter)\((\w+)", source))
    atomics = set(re.findall(r"ct\.atomic_\w+\((\w+)", source))
    return stores, atomics


def choose_extent(rng, hint, atomic):
    if hint is None:
        return int(rng.integers(1, 65))
    kind, n, sliced = hint
    if kind == "g":
        top = (MAX_INDEX + 1) * n
        return top if atomic else int(rng.integers(1, top + 9))
    base = MAX_INDEX * n + (MAX_INDEX if sliced else 0)
    return base + int(rng.integers(1, n + 1))


def random_values(rng, dtype, shape):
    """Random inputs of a dtype, never all zeros: full range for 8-bit integers, small values for
    wider ones (products then stay readable), N(0, 1) floats with one in eight scaled by 100."""
    size = int(np.prod(shape)) if shape else 1
    if dtype == nx.BOOL:
        v = rng.integers(0, 2, size).astype(bool)
        v[0] = True
        return v.reshape(shape)
    if nx.is_int(dtype):
        lo, hi = nx.int_range(dtype)
        if nx.BITS[dtype] > 8:
            lo, hi = max(lo, -1024), min(hi, 2048)
        v = rng.integers(lo, hi + 1, size, dtype=np.int64)
        v[0] = v[0] or 1
        return v.astype(nx.STORAGE[dtype]).reshape(shape)
    v = rng.standard_normal(size)
    v = np.where(rng.random(size) < 0.125, v * 100, v)
    if dtype.startswith("float8"):
        v = np.clip(v, -200, 200)
    v[0] = v[0] or 1.0
    return nx.round_float(v, dtype).reshape(shape)


def poison(dtype, shape):
    if nx.is_float(dtype):
        return np.full(shape, np.nan, dtype=nx.STORAGE[dtype])
    if dtype == nx.BOOL:
        return np.ones(shape, dtype=bool)
    return np.frombuffer(b"\xcd" * (int(np.prod(shape)) * nx.BITS[dtype] // 8),
                         dtype=nx.STORAGE[dtype]).reshape(shape).copy()


class Case:
    """One run of one program: grid, parameter order, initial buffers and scalar values."""

    def __init__(self, grid, arrays, scalars, constants, outputs):
        self.grid = grid
        self.arrays = arrays        # name -> (dtype, numpy array of the initial contents)
        self.scalars = scalars      # name -> (dtype, Python value)
        self.constants = constants  # name -> Python value
        self.outputs = outputs      # names of the arrays the kernel writes

    def args(self):
        """Fresh reference arguments (copies of the initial buffers)."""
        out = {n: memory.make_buffer(a.copy(), d) for n, (d, a) in self.arrays.items()}
        out.update({n: constant(v, d) for n, (d, v) in self.scalars.items()})
        out.update(self.constants)
        return out


def make_case(source, sig, seed):
    rng = np.random.default_rng(seed)
    params = parse_signature(sig)
    hints = parse_extents(source)
    stores, atomics = written_arrays(source)
    uses = {axis: bool(re.search(rf"ct\.bid\({axis}\)", source)) for axis in (1, 2)}
    grid = (int(rng.integers(1, 4)), int(rng.integers(1, 3)) if uses[1] else 1,
            int(rng.integers(1, 3)) if uses[2] else 1)
    arrays, scalars, constants = {}, {}, {}
    for name, p in params.items():
        if p[0] == "array":
            _, dtype, dims, _ = p
            axis_hints = hints.get(name, [None] * len(dims))
            shape = tuple(d if d is not None else choose_extent(rng, h, name in atomics)
                          for d, h in zip(dims, axis_hints + [None] * (len(dims) - len(axis_hints))))
            data = poison(dtype, shape) if name in stores else random_values(rng, dtype, shape)
            arrays[name] = (dtype, data)
        elif p[0] == "scalar":
            dtype = p[1]
            if dtype == nx.BOOL:
                v = bool(rng.integers(0, 2))
            elif dtype == "int32":
                v = int(rng.integers(0, MAX_INDEX + 1))
            elif nx.is_int(dtype):
                v = int(rng.integers(-50, 51))
            else:
                v = float(nx.round_float(rng.uniform(-4, 4), dtype))
            scalars[name] = (dtype, v)
        else:
            constants[name] = p[1]
    return Case(grid, arrays, scalars, constants, sorted(stores | atomics))
