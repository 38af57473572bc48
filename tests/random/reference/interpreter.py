"""Runs a cuTile kernel's Python source for every block of a grid against the stand-in `ct`.

The module's text is executed as Python with `import cuda.tile as ct` replaced by the reference
module and the builtins min/max/abs read the way cuTile reads them; control flow (loops, branches,
early returns, helper calls) is plain Python, since a kernel's scalars are 0-d tiles that convert
to Python ints and bools. Blocks run one after another, in the order x fastest."""
import re

import numpy as np

from . import ct_module, memory, numerics as nx
from .tile import Tile


def load_kernel(source, kernel_name):
    ct = ct_module.build()
    text = re.sub(r"^import cuda\.tile as ct\s*$", "", source, flags=re.M)
    env = {"ct": ct, "min": ct_module.builtin_min, "max": ct_module.builtin_max,
           "abs": ct_module.builtin_abs, "range": int32_range, "__name__": "tile2cu_reference"}
    exec(compile(text, f"<{kernel_name}>", "exec"), env)
    fn = env[kernel_name]
    return fn, list(fn.__code__.co_varnames[:fn.__code__.co_argcount])


def int32_range(*bounds):
    """range() in a kernel: its induction variable is an int32 scalar (a.5), not a Python int."""
    for i in range(*(int(b) for b in bounds)):
        yield Tile(np.int32(i), "int32")


def run(source, kernel_name, args, grid, mode="exact", seed=0):
    """Runs the kernel over `grid` (gx, gy, gz). args: parameter name -> memory.Buffer (an array),
    Tile (a runtime scalar) or a Python value (a Constant). Buffers are updated in place."""
    fn, params = load_kernel(source, kernel_name)
    nx.MODE.__init__(mode, seed)
    values = []
    for p in params:
        v = args[p]
        values.append(memory.Array(v) if isinstance(v, memory.Buffer) else v)
    gx, gy, gz = grid
    ct_module.GRID.dims = (gx, gy, gz)
    memory.CTX.op = 0
    block = 0
    try:
        for z in range(gz):
            for y in range(gy):
                for x in range(gx):
                    ct_module.GRID.bid = (x, y, z)
                    memory.CTX.block = block
                    fn(*values)
                    block += 1
    finally:
        nx.MODE.__init__("exact", 0)


def scalar(value, dtype):
    from .tile import constant
    return constant(value, dtype)


__all__ = ["run", "load_kernel", "scalar", "Tile"]
