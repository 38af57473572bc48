"""The warm path of `ct.launch`: per kernel and per tuple of argument types, a small function
generated for that call shape, which reads the arguments, forms the specialization's key and
calls its C entry, all in one frame.

It computes the same key as `_kernel._bind` (the table of specializations is shared), from
the same reads, and checks the same things; where anything is not as a plain launch needs it
(an argument of another type, a CPU tensor, an int out of range, a missing specialization, an
error of any kind) it answers MISS and the launcher takes the generic path, which raises the
error it always raised, or builds. Lists, tuples and other argument kinds always take the
generic path.
"""

from __future__ import annotations

import math

from . import _args, _dtypes
from ._args import ARRAY, BOOL, FLOAT, INT

MISS = object()
MAX_CALL_SHAPES = 64   # per kernel; past that, new argument types take the generic path


def always_miss(handle, gx, gy, gz, args):
    return MISS


def binder_for(k, args):
    """The warm launcher for calls with the argument types of `args`, made on first use."""
    if type(args) is not tuple and type(args) is not list or len(args) != len(k._params):
        return always_miss
    types = tuple(map(type, args))
    binder = k._warm.get(types)
    if binder is None:
        if len(k._warm) >= MAX_CALL_SHAPES:
            return always_miss
        binder = _generate(k, args) or always_miss
        k._warm[types] = binder
    return binder


def _generate(k, args):
    """Source text of the warm launcher for these argument types, compiled; None where an
    argument is of a kind only the generic path binds."""
    from ._kernel import _array_facts, _const_key, _where   # _kernel imports this module

    env = {"MISS": MISS, "specs": k._specs, "SIGNATURE": _dtypes.SIGNATURE_NAME,
           "torch_dtype": _args._TORCH_DTYPES.get, "array_facts": _array_facts,
           "const_key": _const_key, "isfinite": math.isfinite}
    guards, body, key, call = [], [], [], ["handle", "gx", "gy", "gz"]
    for i, (info, value) in enumerate(zip(k._params, args)):
        a = f"a{i}"
        env[f"T{i}"], env[f"W{i}"] = type(value), _where(i, info)
        guards.append(f"type({a}) is T{i}")
        if info.constant:
            # _const_key's fast cases, written out; other values go through it
            if type(value) is int or type(value) is bool:
                key.append(f"({type(value).__name__}, {a})")
            else:
                key.append(f"const_key({a}, W{i})")
            continue
        kind, reader = _args.kind_of(value)
        if kind == ARRAY:
            if reader is _args.read_torch:   # _args.read_torch, inline
                body += [f"if not {a}.is_cuda: return MISS",
                         f"d{i} = torch_dtype({a}.dtype)",
                         f"if d{i} is None: return MISS",
                         f"s{i}, t{i}, p{i} = {a}.shape, {a}.stride(), {a}.data_ptr()"]
            else:
                env[f"R{i}"] = reader
                body.append(f"d{i}, s{i}, t{i}, p{i} = R{i}({a})")
            body.append(f"n{i} = len(s{i})")
            if info.array_annotation is None:   # as _kernel._bind_value
                key.append(f"((d{i}, n{i}, p{i} % 16 == 0, t{i}[-1] == 1, ()) "
                           f"if n{i} and d{i} in SIGNATURE and min(t{i}) >= 0 "
                           f"else (d{i}, n{i}) + array_facts(d{i}, s{i}, t{i}, p{i}, None, W{i}))")
            else:
                env[f"A{i}"] = info.array_annotation
                key.append(f"(d{i}, n{i}) + array_facts(d{i}, s{i}, t{i}, p{i}, A{i}, W{i})")
            call += [f"p{i}", f"*s{i}", f"*t{i}"]
        elif kind == INT:   # as _kernel._scalar_dtype
            dtype = info.scalar_dtype or _dtypes.int32
            lo, hi = ((-(2**63), 2**63 - 1) if dtype is _dtypes.int64
                      else (_args.INT32_MIN, _args.INT32_MAX))
            env[f"D{i}"] = dtype
            body.append(f"if not {lo} <= {a} <= {hi}: return MISS")
            key.append(f"D{i}")
            call.append(a)
        elif kind == BOOL or kind == FLOAT:
            env[f"D{i}"] = _dtypes.bool_ if kind == BOOL else _dtypes.float32
            key.append(f"D{i}")
            call.append(a)
        else:
            return None
    n = len(k._params)
    lines = ["def warm_launch(handle, gx, gy, gz, args):",
             f"    if type(args) is not tuple and type(args) is not list or len(args) != {n}:",
             "        return MISS"]
    if n:
        lines += [f"    {', '.join(f'a{i}' for i in range(n))}, = args",
                  f"    if not ({' and '.join(guards)}):",
                  "        return MISS"]
    lines += ["    try:"] + [f"        {line}" for line in body]
    lines += [f"        key = ({''.join(f'{item}, ' for item in key)})",
              "    except Exception:   # the generic path raises it, located",
              "        return MISS",
              "    spec = specs.get(key)",
              "    if spec is None:",
              "        return MISS",
              f"    return spec.entry({', '.join(call)})"]
    text = "\n".join(lines) + "\n"
    exec(compile(text, f"<tile2cu warm launch of {k._pyfunc.__qualname__}>", "exec"), env)  # noqa: S102
    return env["warm_launch"]
