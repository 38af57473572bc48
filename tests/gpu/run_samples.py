#!/usr/bin/env python3
"""GPU check and benchmark of the tile2cu samples.

For every sample `samples/<name>.py` with its sidecar `samples/<name>.sigs`, the transpiler has
already written `GEN/<name>.cu` (+ `GEN/<name>.cuh`). This script

  1. builds each `.cu` into `GEN/<name>.so` with nvcc (all in parallel);
  2. calls every specialization S through its C ABI
         extern "C" int tile2cu_S(void* stream, unsigned gx, unsigned gy, unsigned gz, <flat args>)
     (flat args: the kernel's parameters in declaration order, Constant parameters left out; an
     array of rank n is `void* data, int64_t shape[n]..., int64_t stride[n]...` with strides in
     elements; a scalar is passed as its C type, float16/bfloat16 scalars as `float`), on fresh
     random inputs of several sizes, most of them not multiples of the tile, with every output
     poisoned before the run (and guarded before/after, so stray writes are seen), against a
     torch reference computed in float64 (exact for integers);
  3. times every specialization against its eager-torch equivalent (CUDA events, warm-up, median),
     with the two headline comparisons: fp32 vector add at 2^28 elements against `torch.add`
     and a device-to-device copy, and the fused chain exp(a) * b + c in bf16/fp16 at 2^28
     elements against the eager torch expression;
  4. prints a markdown table last, writes `$OUT/gpu_results.json` when OUT is set, and exits
     non-zero when any check failed.

Without a CUDA device (or without torch) it prints "no GPU: skipped" and exits 0.

    python3 tests/gpu/run_samples.py --gen out/gen --runtime runtime --commit $(git rev-parse HEAD)

`--backend cutile` runs the same checks and timings through real cuTile (`ct.launch`, needs the
cuda-tile package, tileiras and a recent driver) instead of the generated libraries: a way to
check the samples and their references against the original.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import ctypes
import datetime
import importlib.util
import json
import math
import os
import random
import re
import shutil
import statistics
import struct
import subprocess
import sys
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

torch = None  # imported lazily in main(): this file must run (and skip) where torch is missing

# ================================================================================================
# Sidecar signatures (no torch needed)
# ================================================================================================

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "bfloat16", "float32", "float64"]
FLOAT_DTYPES = {"float16", "bfloat16", "float32", "float64"}
ARRAY_FLAGS = {"align16", "contiguous"}


class Constraint:
    """One parameter of a specialization: kind is 'array', 'list' (of arrays, described by
    dtype/dims/flags of its items), 'scalar' or 'const'."""

    def __init__(self, kind, dtype=None, dims=None, flags=(), value=None, text=""):
        self.kind = kind
        self.dtype = dtype
        self.dims = dims          # list of None (dynamic) / int (static extent)
        self.flags = set(flags)
        self.value = value
        self.text = text

    @property
    def rank(self):
        return len(self.dims)


class Spec:
    def __init__(self, name, kernel, params, sample, line):
        self.name = name
        self.kernel = kernel
        self.params = params      # dict name -> Constraint, as written
        self.sample = sample
        self.line = line
        self.order = list(params) # replaced by the kernel's declaration order when known

    def const(self, name):
        c = self.params[name]
        if c.kind != "const":
            raise KeyError(f"{self.name}: parameter {name} is not a constant")
        return c.value

    def dtype(self, name):
        # "outs#2": item 2 of the list parameter outs, which has the list's dtype
        return self.params[name.split("#", 1)[0]].dtype

    def any_flag(self, flag):
        return any(flag in c.flags for c in self.params.values() if c.kind == "array")


def _split_top(text):
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    tail = "".join(cur).strip()
    if tail:
        parts.append(tail)
    return parts


def parse_constraint(text):
    text = text.strip()
    m = re.fullmatch(r"list\s*\[(.*)\]", text)
    if m:
        item = parse_constraint(m.group(1))
        if item.kind != "array":
            raise ValueError(f"a list holds arrays: '{text}'")
        item.kind, item.text = "list", text
        return item
    m = re.fullmatch(r"([A-Za-z_]\w*)\s*\[([^\]]*)\]\s*(.*)", text)
    if m and m.group(1) in DTYPES:
        dims_text = m.group(2).strip()
        dims = []
        if dims_text:
            for d in dims_text.split(","):
                d = d.strip()
                dims.append(None if d == "?" else int(d))
        flags = m.group(3).split()
        bad = [f for f in flags if f not in ARRAY_FLAGS]
        if bad:
            raise ValueError(f"unknown array flag(s) {bad} in '{text}'")
        return Constraint("array", m.group(1), dims, flags, text=text)
    if text in DTYPES:
        return Constraint("scalar", text, text=text)
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError) as e:
        raise ValueError(f"cannot read constraint '{text}'") from e
    return Constraint("const", value=value, text=text)


def parse_sigs(path, sample):
    specs = []
    for lineno, raw in enumerate(Path(path).read_text().splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = re.fullmatch(r"(?:([A-Za-z_]\w*)\s*=\s*)?([A-Za-z_]\w*)\s*\((.*)\)", line)
        if not m:
            raise ValueError(f"{path}:{lineno}: cannot read signature: {raw}")
        name, kernel, args = m.groups()
        params = {}
        for arg in _split_top(args):
            pname, eq, ctext = arg.partition("=")
            if not eq:
                raise ValueError(f"{path}:{lineno}: parameter without a name: {arg}")
            params[pname.strip()] = parse_constraint(ctext)
        if not name:
            raise ValueError(f"{path}:{lineno}: every line needs an explicit spec name")
        specs.append(Spec(name, kernel, params, sample, f"{Path(path).name}:{lineno}"))
    return specs


def kernel_param_order(py_path, kernel):
    """Parameter names of `kernel` in declaration order (None if it cannot be found)."""
    try:
        tree = ast.parse(Path(py_path).read_text())
    except (OSError, SyntaxError):
        return None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == kernel:
            return [a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs]
    return None


# Samples with GPU checks and benchmarks of their own (matrix multiplies: tests/gpu/run_matmul.py
# and tests/gpu/run_attention.py); this script leaves them to those.
CHECKED_ELSEWHERE = {"matmul", "mma_dtypes", "grouped_matmul", "splitk_atomic", "attention"}


def discover(samples_dir, only):
    """-> list of (sample name, [Spec]), errors."""
    found, errors = [], []
    for sigs in sorted(Path(samples_dir).glob("*.sigs")):
        sample = sigs.stem
        if (only and sample not in only) or sample in CHECKED_ELSEWHERE:
            continue
        try:
            specs = parse_sigs(sigs, sample)
        except ValueError as e:
            errors.append(str(e))
            continue
        py = sigs.with_suffix(".py")
        for s in specs:
            order = kernel_param_order(py, s.kernel)
            if order is not None:
                missing = [p for p in order if p not in s.params]
                extra = [p for p in s.params if p not in order]
                if missing or extra:
                    errors.append(f"{s.line}: {s.name}: parameters do not match {s.kernel}() "
                                  f"(missing {missing}, unknown {extra})")
                    continue
                s.order = order
        found.append((sample, specs))
    return found, errors


# ================================================================================================
# Small helpers
# ================================================================================================

F32_ULP = 2.0 ** -23
F64_ULP = 2.0 ** -52

# (rtol, atol, max relative norm error) by output dtype
TOLERANCES = {
    "float64": (1e-12, 1e-13, 1e-12),
    "float32": (1e-5, 1e-6, 1e-5),
    "float16": (1e-3, 1e-5, 1e-3),
    "bfloat16": (1e-2, 1e-5, 1e-2),
}
TARGETS = {"vector_add": 0.95, "fused": 1.5}
NORM_MIN_ELEMENTS = 64  # outputs smaller than this are judged element-wise only


def cdiv(a, b):
    return -(-a // b)


def f32(x):
    """The float32 value a Python float argument becomes."""
    return struct.unpack("f", struct.pack("f", x))[0]


def fmt_n(n):
    """1048579 -> '2^20+3' (sizes near a power of two read better that way)."""
    if n >= 1024:
        k = round(math.log2(n))
        d = n - (1 << k)
        if abs(d) <= 64:
            return f"2^{k}" + (f"{d:+d}" if d else "")
    return str(n)


def fmt_shape(shape):
    return "x".join(fmt_n(s) for s in shape)


def torch_dtype(name):
    return {"bool": torch.bool}.get(name) or getattr(torch, name)


def poison_value(dtype, k):
    """k-th poison for a dtype: NaN for floats, a byte pattern for integers."""
    if dtype in FLOAT_DTYPES:
        return float("nan")
    if dtype == "bool":
        return bool(k % 2)
    byte = (0x5A, 0x25)[k % 2]
    bits = int(re.search(r"\d+", dtype).group())
    v = int.from_bytes(bytes([byte]) * (bits // 8), "little")
    if not dtype.startswith("u") and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


# ================================================================================================
# Buffers: random inputs, guarded and poisoned outputs
# ================================================================================================

GUARD_BYTES = 256


class Buffer:
    """A view into a larger allocation; the elements outside the view must never be written."""

    def __init__(self, shape, dtype_name, strides=None):
        self.dtype_name = dtype_name
        dt = torch_dtype(dtype_name)
        shape = tuple(int(s) for s in shape)
        if strides is None:
            strides, acc = [], 1
            for s in reversed(shape):
                strides.append(acc)
                acc *= max(s, 1)
            strides = tuple(reversed(strides))
        item = torch.empty((), dtype=dt).element_size()
        self.guard = GUARD_BYTES // item
        span = 1 + sum((s - 1) * st for s, st in zip(shape, strides)) if all(shape) else 0
        self.backing = torch.empty(self.guard * 2 + span, dtype=dt, device="cuda")
        self.view = self.backing.as_strided(shape, strides, self.guard)
        self.outside = None

    def poison(self, k):
        self.backing.fill_(poison_value(self.dtype_name, k))

    def untouched_ok(self, k):
        """True if nothing outside the view changed since poison(k)."""
        if self.outside is None:
            mask = torch.ones_like(self.backing, dtype=torch.bool)
            mask.as_strided(self.view.shape, self.view.stride(), self.guard).fill_(False)
            self.outside = mask
        rest = self.backing[self.outside]
        if self.dtype_name in FLOAT_DTYPES:
            return bool(torch.isnan(rest).all())
        return bool((rest == poison_value(self.dtype_name, k)).all())


class Ctx:
    """What a sample's build() uses to make its arguments."""

    def __init__(self, gen, rng):
        self.gen = gen
        self.rng = rng
        self.outputs = {}   # param name -> Buffer

    def randn(self, shape, dtype, scale=1.0, strides=None):
        b = Buffer(shape, dtype, strides)
        vals = torch.randn(b.backing.shape, generator=self.gen, device="cuda",
                           dtype=torch.float32) * scale
        b.backing.copy_(vals.to(b.backing.dtype))
        return b.view

    def randint(self, lo, hi, shape, dtype, strides=None):
        b = Buffer(shape, dtype, strides)
        vals = torch.randint(lo, hi, b.backing.shape, generator=self.gen, device="cuda",
                             dtype=torch.int64)
        b.backing.copy_(vals.to(b.backing.dtype))
        return b.view

    def out(self, name, shape, dtype, strides=None):
        b = Buffer(shape, dtype, strides)
        self.outputs[name] = b
        return b.view

    def uniform(self, lo, hi):
        return self.rng.uniform(lo, hi)


# ================================================================================================
# Checking
# ================================================================================================

def compare(out, ref, dtype_name, slack=None, exact=False, zero_sign=False, norm_tol=None):
    """Compare a kernel output with its reference.

    Floats pass when |out - ref| <= atol + rtol * |ref| + slack element-wise (slack: the
    sample's allowance for float32 / transcendental evaluation error, proportional to the
    magnitude of the terms), NaN/inf exactly where the reference has them, and
    ||out - ref|| / ||ref|| <= the dtype's norm tolerance. Integers must match exactly.
    -> dict(ok, max_err, tol_ratio (worst |err| / tolerance), rel_norm, n_bad, first_bad)
    """
    res = {"ok": True, "max_err": 0.0, "tol_ratio": 0.0, "rel_norm": 0.0, "n_bad": 0,
           "first_bad": None}
    if out.shape != ref.shape:
        res.update(ok=False, first_bad=f"shape {tuple(out.shape)} != {tuple(ref.shape)}")
        return res
    if out.numel() == 0:
        return res
    if dtype_name not in FLOAT_DTYPES:
        o, r = out.long(), ref.long()
        diff = (o - r).abs()
        bad = o != r
        res["max_err"] = int(diff.max())
        res["rel_norm"] = 0.0 if not bad.any() else float(diff.double().norm()
                                                          / max(r.double().norm(), 1.0))
    else:
        o, r = out.double(), ref.double()
        rtol, atol, dtype_norm_tol = TOLERANCES[dtype_name]
        norm_tol = dtype_norm_tol if norm_tol is None else norm_tol
        if exact:
            rtol = atol = 0.0
        r_nan, o_nan = torch.isnan(r), torch.isnan(o)
        r_inf = torch.isinf(r)
        finite = ~r_nan & ~r_inf
        diff = torch.where(finite, (o - r).abs(), torch.zeros_like(r))
        diff = torch.where(o_nan & ~r_nan, torch.full_like(r, math.inf), diff)
        tol = atol + rtol * r.abs()
        if slack is not None:
            tol = tol + slack.double()
        bad = (r_nan != o_nan) | (r_inf & (o != r)) | (finite & ~(diff <= tol))
        if zero_sign:
            bad |= (r == 0) & (torch.signbit(o) != torch.signbit(r))
        res["max_err"] = float(diff.max())
        if exact:
            res["tol_ratio"] = 0.0 if res["max_err"] == 0 else math.inf
        else:
            res["tol_ratio"] = float((diff / tol).max())
        rn = float(r[finite].norm()) if finite.any() else 0.0
        dn = float(diff.norm())
        res["rel_norm"] = dn / rn if rn > 0 else dn
        # The norm catches a systematic error that stays under the element-wise tolerance.
        # Over a few elements it only measures their rounding (one element near a
        # cancellation fails it), which the element-wise tolerance already judges.
        if not exact and res["rel_norm"] > norm_tol and int(finite.sum()) >= NORM_MIN_ELEMENTS:
            res["ok"] = False
    n_bad = int(bad.sum())
    if n_bad:
        res["ok"] = False
        res["n_bad"] = n_bad
        idx = int(bad.flatten().nonzero()[0])
        pos = tuple(int(i) for i in _unravel(idx, out.shape))
        res["first_bad"] = (f"at {pos}: got {out.flatten()[idx].item()!r}, "
                            f"expected {ref.flatten()[idx].item()!r}")
    return res


def _unravel(idx, shape):
    pos = []
    for s in reversed(shape):
        pos.append(idx % s)
        idx //= s
    return reversed(pos)


# ================================================================================================
# The samples: inputs, grid, float64 reference, eager-torch equivalent
# ================================================================================================
#
# build(spec, case, ctx) -> {param: tensor or Python scalar} for every non-Constant parameter;
#   outputs come from ctx.out(name, ...) so that they are guarded and poisoned.
# grid(spec, case, args) -> (gx[, gy[, gz]])
# reference(spec, case, args) -> {output: tensor | dict(ref=, slack=, exact=, zero_sign=)}
# torch_fn(spec, args) -> a no-argument callable doing the same work in eager torch
# cases(spec, quick) -> list of dicts with a 'label'; bench_case(spec) -> one case

DEVICE = {"sms": 132}


def sizes_1d(tile, quick):
    sizes = {1, 1000, tile - 1, tile + 1, 4 * tile, (1 << 20) + 3}
    if not quick:
        sizes |= {tile, 3_000_017}
    return sorted(sizes)


def cases_1d(spec, quick, tile_param="TILE"):
    return [{"label": fmt_n(n), "n": n} for n in sizes_1d(spec.const(tile_param), quick)]


def rand_like_dtype(ctx, shape, dtype, strides=None, scale=1.0, int_range=(-1000, 1000)):
    if dtype in FLOAT_DTYPES:
        return ctx.randn(shape, dtype, scale=scale, strides=strides)
    return ctx.randint(int_range[0], int_range[1], shape, dtype, strides=strides)


def ref_add(*tensors):
    if tensors[0].dtype.is_floating_point:
        return sum(t.double() for t in tensors)
    return sum(t.long() for t in tensors)


class Sample:
    name = kernel = ""
    outputs = ()

    def cases(self, spec, quick):
        return cases_1d(spec, quick)

    def bench_case(self, spec):
        return {"label": fmt_n(1 << 26), "n": 1 << 26}

    def grid(self, spec, case, args):
        return (cdiv(case["n"], spec.const("TILE")),)

    def torch_fn(self, spec, args):
        return None


class VectorAdd(Sample):
    name, kernel, outputs = "vector_add", "vector_add", ("c",)

    def cases(self, spec, quick):
        cs = cases_1d(spec, quick)
        if not spec.any_flag("contiguous"):
            cs.append({"label": "100003/s2", "n": 100003, "step": 2})
        return cs

    def bench_case(self, spec):
        return {"label": fmt_n(1 << 28), "n": 1 << 28}

    def build(self, spec, case, ctx):
        n, st = case["n"], case.get("step", 1)
        strides = (st,) if st != 1 else None
        rng = (-(1 << 30) + 1, 1 << 30)
        return {
            "a": rand_like_dtype(ctx, (n,), spec.dtype("a"), strides, int_range=rng),
            "b": rand_like_dtype(ctx, (n,), spec.dtype("b"), strides, int_range=rng),
            "c": ctx.out("c", (n,), spec.dtype("c"), strides),
        }

    def reference(self, spec, case, args):
        return {"c": ref_add(args["a"], args["b"])}

    def torch_fn(self, spec, args):
        a, b, c = args["a"], args["b"], args["c"]
        return lambda: torch.add(a, b, out=c)


class RowBiasScale(Sample):
    name, kernel, outputs = "row_bias_scale", "row_bias_scale", ("y",)

    def cases(self, spec, quick):
        tm, tn = spec.const("TM"), spec.const("TN")
        shapes = [(1, 1), (1000, 3000), (tm + 1, tn - 1), (37, 4099)]
        if not quick:
            shapes += [(tm, tn), (3 * tm - 1, 2 * tn + 5)]
        cs = [{"label": fmt_shape(s), "shape": s} for s in shapes]
        cs.append({"label": "1000x3000/ld3003", "shape": (1000, 3000), "ld": 3003})
        # Every other column: a last axis with stride 2 takes the strided (out-of-line) runs.
        cs.append({"label": "300x700/ld1411,step2", "shape": (300, 700), "ld": 1411, "step": 2})
        return cs

    def bench_case(self, spec):
        return {"label": "8192x8192", "shape": (8192, 8192)}

    def grid(self, spec, case, args):
        m, n = case["shape"]
        return (cdiv(m, spec.const("TM")), cdiv(n, spec.const("TN")))

    def build(self, spec, case, ctx):
        m, n = case["shape"]
        strides = (case["ld"], case.get("step", 1)) if "ld" in case else None
        return {
            "x": ctx.randn((m, n), spec.dtype("x"), strides=strides),
            "bias": ctx.randn((n,), spec.dtype("bias")),
            "y": ctx.out("y", (m, n), spec.dtype("y"), strides=strides),
            "scale": ctx.uniform(-2.0, 2.0),
        }

    def reference(self, spec, case, args):
        s = f32(args["scale"])
        xs = args["x"].double() * s
        b = args["bias"].double()[None, :]
        return {"y": {"ref": xs + b, "slack": 4 * F32_ULP * (xs.abs() + b.abs())}}

    def torch_fn(self, spec, args):
        x, bias, y, s = args["x"], args["bias"], args["y"], args["scale"]
        if x.dtype == bias.dtype == y.dtype:
            return lambda: torch.add(bias, x, alpha=s, out=y)
        return lambda: (x.float() * s + bias.float()).to(y.dtype)


class FusedExpMulAdd(Sample):
    name, kernel, outputs = "fused_exp_mul_add", "fused_exp_mul_add", ("y",)

    def persistent(self):
        return DEVICE["sms"] * 8

    def cases(self, spec, quick):
        tile, p = spec.const("TILE"), self.persistent()
        runs = [(1, p), (1000, 3), (tile + 1, 1), ((1 << 20) + 3, p), (4 * tile - 1, 2)]
        if not quick:
            runs += [(3_000_017, 5), (3_000_017, p)]
        return [{"label": f"{fmt_n(n)}/g{g}", "n": n, "blocks": g} for n, g in runs]

    def bench_case(self, spec):
        return {"label": fmt_n(1 << 28), "n": 1 << 28, "blocks": self.persistent()}

    def grid(self, spec, case, args):
        return (case["blocks"],)

    def build(self, spec, case, ctx):
        n = case["n"]
        return {
            "a": ctx.randn((n,), spec.dtype("a")),
            "b": ctx.randn((n,), spec.dtype("b")),
            "c": ctx.randn((n,), spec.dtype("c")),
            "y": ctx.out("y", (n,), spec.dtype("y")),
        }

    def reference(self, spec, case, args):
        e = torch.exp(args["a"].double()) * args["b"].double()
        c = args["c"].double()
        return {"y": {"ref": e + c, "slack": 6 * F32_ULP * (e.abs() + c.abs())}}

    def torch_fn(self, spec, args):
        a, b, c, y = args["a"], args["b"], args["c"], args["y"]
        if a.dtype == torch.float32:
            return lambda: torch.exp(a) * b + c
        return lambda: (torch.exp(a.float()) * b.float() + c.float()).to(y.dtype)


class Gelu(Sample):
    name, kernel, outputs = "gelu_helper", "gelu", ("y",)
    K = math.sqrt(2.0 / math.pi)

    def build(self, spec, case, ctx):
        n = case["n"]
        return {"x": ctx.randn((n,), spec.dtype("x"), scale=2.0),
                "y": ctx.out("y", (n,), spec.dtype("y"))}

    def reference(self, spec, case, args):
        x = args["x"].double()
        ref = 0.5 * x * (1.0 + torch.tanh(self.K * (x + 0.044715 * x ** 3)))
        if spec.dtype("x") == "float64":
            # cuTile does not promise float64 accuracy for transcendentals: on an H200 with
            # tileiras 13.4 its float64 tanh is off by ~3e-9 (relative). Allow ~1e-7 of |x|.
            return {"y": {"ref": ref, "slack": 1e-7 * x.abs(), "norm_tol": 1e-7}}
        return {"y": {"ref": ref, "slack": 32 * F32_ULP * x.abs()}}

    def torch_fn(self, spec, args):
        x = args["x"]
        return lambda: torch.nn.functional.gelu(x, approximate="tanh")


class TracedScale(Sample):
    # Block 0 also prints three trace lines (f-strings in a with over a contextmanager helper);
    # this check covers the stored values, tests/gpu/check_debug.py the printing.
    name, kernel, outputs = "traced_scale", "traced_scale", ("y",)

    def build(self, spec, case, ctx):
        n = case["n"]
        return {"x": ctx.randn((n,), spec.dtype("x")), "y": ctx.out("y", (n,), spec.dtype("y"))}

    def reference(self, spec, case, args):
        return {"y": 2.0 * args["x"].double()}

    def torch_fn(self, spec, args):
        x = args["x"]
        return lambda: x * 2.0


class PadProbe(Sample):
    name, kernel = "ragged_padding", "pad_probe"
    outputs = ("out_zero", "out_negz", "out_ninf", "out_pinf", "out_nan", "xt")
    FILL = {"out_zero": 0.0, "out_negz": -0.0, "out_ninf": -1.0, "out_pinf": 1000.0,
            "out_nan": 7.0}

    def cases(self, spec, quick):
        tm, tn = spec.const("TM"), spec.const("TN")
        shapes = [(1, 1), (tm + 1, tn - 1), (1000, 3000), (37, 4099)]
        if not quick:
            shapes += [(tm, tn), (2 * tm - 1, 1)]
        return [{"label": fmt_shape(s), "shape": s} for s in shapes]

    def bench_case(self, spec):
        return {"label": "8191x8191", "shape": (8191, 8191)}

    def padded(self, spec, case):
        m, n = case["shape"]
        tm, tn = spec.const("TM"), spec.const("TN")
        return cdiv(m, tm) * tm, cdiv(n, tn) * tn

    def grid(self, spec, case, args):
        m, n = case["shape"]
        return (cdiv(m, spec.const("TM")), cdiv(n, spec.const("TN")))

    def build(self, spec, case, ctx):
        m, n = case["shape"]
        mp, np_ = self.padded(spec, case)
        dt = spec.dtype("x")
        args = {"x": ctx.randn((m, n), dt)}
        for o in self.FILL:
            args[o] = ctx.out(o, (mp, np_), spec.dtype(o))
        args["xt"] = ctx.out("xt", (np_, mp), spec.dtype("xt"))
        return args

    def reference(self, spec, case, args):
        x = args["x"].double()
        m, n = x.shape
        mp, np_ = self.padded(spec, case)
        refs = {}
        for o, fill in self.FILL.items():
            r = torch.full((mp, np_), fill, dtype=torch.float64, device="cuda")
            r[:m, :n] = x
            refs[o] = {"ref": r, "exact": True, "zero_sign": True}
        r = torch.zeros((np_, mp), dtype=torch.float64, device="cuda")
        r[:n, :m] = x.t()
        refs["xt"] = {"ref": r, "exact": True, "zero_sign": True}
        return refs

    def torch_fn(self, spec, args):
        x = args["x"]
        m, n = x.shape
        mp, np_ = args["out_zero"].shape
        pad = (0, np_ - n, 0, mp - m)
        F = torch.nn.functional

        def run():
            for fill in self.FILL.values():
                F.pad(x, pad, value=fill)
            F.pad(x.t(), (0, mp - m, 0, np_ - n)).contiguous()
        return run


def _fdiv(a, b):
    return torch.div(a, b, rounding_mode="floor")


def _wrap8(v):
    return ((v + 128) & 255) - 128


class IntSemantics(Sample):
    name, kernel = "int_semantics", "int_semantics"
    outputs = ("quot", "rem", "lit", "bits", "small", "flags", "minmax")

    def build(self, spec, case, ctx):
        n = case["n"]
        wide = spec.dtype("a") == "int64"
        amax = 1 << (40 if wide else 20)
        bmax = 1 << (20 if wide else 10)
        a = ctx.randint(-amax, amax + 1, (n,), spec.dtype("a"))
        b = ctx.randint(-bmax, bmax + 1, (n,), spec.dtype("b"))
        # every sign combination of small operands first, then ~10% zero divisors
        fixed_a = [-7, 7, -7, 7, 0, -1, 1, -8, 8, -3, amax, -amax]
        fixed_b = [2, -2, -2, 2, 3, 0, -1, 4, -4, 3, -5, 5]
        k = min(n, len(fixed_a))
        a[:k] = torch.tensor(fixed_a[:k], dtype=a.dtype, device="cuda")
        b[:k] = torch.tensor(fixed_b[:k], dtype=b.dtype, device="cuda")
        zero = torch.rand(n, generator=ctx.gen, device="cuda") < 0.1
        zero[:k] = False
        b[zero] = 0
        args = {"a": a, "b": b,
                "s": ctx.randint(-128, 128, (n,), spec.dtype("s"))}
        for o in self.outputs:
            args[o] = ctx.out(o, (n,), spec.dtype(o))
        return args

    @staticmethod
    def compute(a, b, s):
        """The kernel's arithmetic on int64 (ref) or native (eager torch) tensors."""
        d = torch.where(b == 0, torch.ones_like(b), b)
        quot = _fdiv(a, d)
        rem = torch.remainder(a, d)
        lit = _fdiv(a, -4) * 8 + torch.remainder(a, 5) - torch.remainder(a, -3)
        mixed = (((a << 3) ^ (b >> 1)) & 0xFFFF) | (torch.bitwise_not(a) >> 2)
        shifted = (a >> (b & 7)) + ((a & 0xFF) << (b & 3))
        small = (s.long() + 100) * 3 ^ -7
        lt = (a < b).int()
        even = (torch.remainder(a, 2) == 0).int() << 1
        quad = torch.where((a >= 0) & (b < 0), 4, 0).int()
        differs = (a != b).int() * 8
        spread = torch.maximum(a, b) - torch.minimum(-a, b) + a.abs()
        clamped = torch.clamp(a, max=1000) - torch.clamp(b, min=-1000)
        return {"quot": quot, "rem": rem, "lit": lit, "bits": mixed + shifted,
                "small": _wrap8(small), "flags": lt | even | quad | differs,
                "minmax": spread + clamped}

    def reference(self, spec, case, args):
        return self.compute(args["a"].long(), args["b"].long(), args["s"])

    def torch_fn(self, spec, args):
        return lambda: self.compute(args["a"], args["b"], args["s"])


class BatchedAffine(Sample):
    name, kernel, outputs = "batched_affine", "batched_affine", ("y",)

    def cases(self, spec, quick):
        tm, tn = spec.const("TM"), spec.const("TN")
        shapes = [(1, 1, 1), (3, 100, 300), (2, tm + 1, tn - 1), (5, 37, 1000)]
        if not quick:
            shapes += [(1, tm, tn), (7, 3 * tm, 2 * tn + 1)]
        return [{"label": fmt_shape(s), "shape": s} for s in shapes]

    def bench_case(self, spec):
        return {"label": "16x2048x2048", "shape": (16, 2048, 2048)}

    def grid(self, spec, case, args):
        b, m, n = case["shape"]
        return (b, cdiv(m, spec.const("TM")), cdiv(n, spec.const("TN")))

    def build(self, spec, case, ctx):
        b, m, n = case["shape"]
        return {
            "x": ctx.randn((b, m, n), spec.dtype("x")),
            "gamma": ctx.randn((n,), spec.dtype("gamma")),
            "beta": ctx.randn((b, m), spec.dtype("beta")),
            "y": ctx.out("y", (b, m, n), spec.dtype("y")),
        }

    def reference(self, spec, case, args):
        xg = args["x"].double() * args["gamma"].double()
        be = args["beta"].double()[:, :, None]
        return {"y": {"ref": xg + be, "slack": 4 * F32_ULP * (xg.abs() + be.abs())}}

    def torch_fn(self, spec, args):
        x, g, be, y = args["x"], args["gamma"], args["beta"], args["y"]
        if x.dtype == g.dtype == be.dtype == y.dtype:
            return lambda: torch.addcmul(be[:, :, None], x, g, out=y)
        return lambda: torch.addcmul(be[:, :, None].float(), x.float(), g.float()).to(y.dtype)


class TileWalk(Sample):
    name, kernel, outputs = "tile_walk", "tile_walk", ("y",)

    def cases(self, spec, quick):
        tile, p = spec.const("TILE"), DEVICE["sms"] * 4
        big = (1 << 20) + 3
        nt = cdiv(big, tile)
        runs = [(1, 4, 0), (1, 4, 1), (1000, 3, 1), (7 * tile + 5, 2, 3),
                (big, 13, nt // 2), (big, p, nt + 5), (3 * tile, 1, 2)]
        if not quick:
            runs += [(3_000_017, 7, 0), (3_000_017, p, 100)]
        return [{"label": f"{fmt_n(n)}/g{g}/stop{s}", "n": n, "blocks": g, "stop": s}
                for n, g, s in runs]

    def bench_case(self, spec):
        n = 1 << 26
        return {"label": fmt_n(n), "n": n, "blocks": DEVICE["sms"] * 4,
                "stop": cdiv(n, spec.const("TILE")) // 2}

    def grid(self, spec, case, args):
        return (case["blocks"],)

    def build(self, spec, case, ctx):
        n = case["n"]
        return {"x": ctx.randn((n,), spec.dtype("x")),
                "y": ctx.out("y", (n,), spec.dtype("y")),
                "stop_tile": case["stop"]}

    @staticmethod
    def compute(x, stop, tile, dt):
        k = torch.arange(x.shape[0], device="cuda")
        t = k // tile
        xv = x.to(dt)
        walked = torch.where(t % 3 == 2, -xv, 1.0 + xv + xv)
        return torch.where(t < stop, walked, 0.5 + (k % 1000).to(dt))

    def reference(self, spec, case, args):
        x = args["x"]
        ref = self.compute(x, args["stop_tile"], spec.const("TILE"), torch.float64)
        return {"y": {"ref": ref, "slack": 4 * F32_ULP * (1.0 + 2.0 * x.double().abs())}}

    def torch_fn(self, spec, args):
        x, stop, tile = args["x"], args["stop_tile"], spec.const("TILE")
        return lambda: self.compute(x, stop, tile, torch.float32)


class UnaryMath(Sample):
    name, kernel, outputs = "unary_math", "unary_math", ("roots", "logs", "rounds")

    def build(self, spec, case, ctx):
        n = case["n"]
        args = {"x": ctx.randn((n,), spec.dtype("x"), scale=2.0)}
        for o in self.outputs:
            args[o] = ctx.out(o, (n,), spec.dtype(o))
        return args

    @staticmethod
    def terms(t):
        p = t.abs() + 0.5
        return {
            "roots": [torch.sqrt(p), torch.rsqrt(p)],
            "logs": [torch.log2(p), torch.exp2(t * 0.5), -torch.exp(-p)],
            "rounds": [torch.floor(t * 4.0), torch.ceil(t * -2.0), torch.floor(t / 0.5),
                       torch.remainder(t, 0.75), torch.clamp(t, min=-0.25),
                       torch.clamp(t, max=0.25), torch.relu(t)],
        }

    def reference(self, spec, case, args):
        refs = {}
        for o, ts in self.terms(args["x"].double()).items():
            mag = sum(v.abs() for v in ts)
            refs[o] = {"ref": sum(ts), "slack": 16 * F32_ULP * mag}
        return refs

    def torch_fn(self, spec, args):
        x = args["x"]
        return lambda: [sum(ts) for ts in self.terms(x.float()).values()]


class Softmax(Sample):
    name, kernel, outputs = "softmax", "softmax", ("y",)

    def cases(self, spec, quick):
        tn = spec.const("TN")
        shapes = [(1, 1), (3, tn), (100, tn - 1), (37, tn // 2 + 3)]
        if not quick:
            shapes += [(1000, max(1, tn // 3)), (513, tn)]
        return [{"label": fmt_shape(s), "shape": s} for s in shapes]

    def bench_case(self, spec):
        tn = spec.const("TN")
        return {"label": fmt_shape((32768, tn)), "shape": (32768, tn)}

    def grid(self, spec, case, args):
        return (case["shape"][0],)

    def build(self, spec, case, ctx):
        m, n = case["shape"]
        return {"x": ctx.randn((m, n), spec.dtype("x"), scale=3.0),
                "y": ctx.out("y", (m, n), spec.dtype("y"))}

    def reference(self, spec, case, args):
        ref = torch.softmax(args["x"].double(), dim=1)
        return {"y": {"ref": ref, "slack": 64 * F32_ULP * ref}}

    def torch_fn(self, spec, args):
        x, y = args["x"], args["y"]
        return lambda: torch.softmax(x, dim=1)


class SoftmaxFastMath(Softmax):
    """softmax with approximate exp2 (2 ulp, of x * log2 e: the product's rounding is scaled up
    by the exponent, as is the difference's in both kernels) and div.full (2 ulp)."""
    kernel = "softmax_fast_math"

    def reference(self, spec, case, args):
        ref = torch.softmax(args["x"].double(), dim=1)
        return {"y": {"ref": ref, "slack": 128 * F32_ULP * ref}}


class OnlineSoftmax(Sample):
    """Rows of several column tiles: the (max, sum) state is carried through the tile loop."""
    name, kernel, outputs = "online_softmax", "online_softmax", ("y",)

    def cases(self, spec, quick):
        tn = spec.const("TN")
        shapes = [(1, 1), (3, tn), (5, 3 * tn + 7), (64, 10 * tn - 1)]
        if not quick:
            shapes += [(300, 40 * tn + 5)]
        return [{"label": fmt_shape(s), "shape": s} for s in shapes]

    def bench_case(self, spec):
        tn = spec.const("TN")
        return {"label": fmt_shape((4096, 64 * tn)), "shape": (4096, 64 * tn)}

    def grid(self, spec, case, args):
        return (case["shape"][0],)

    def build(self, spec, case, ctx):
        m, n = case["shape"]
        return {"x": ctx.randn((m, n), spec.dtype("x"), scale=3.0),
                "y": ctx.out("y", (m, n), spec.dtype("y"))}

    def reference(self, spec, case, args):
        ref = torch.softmax(args["x"].double(), dim=1)
        # One rescale per tile adds a rounding each: the slack grows with the row's tiles.
        tiles = -(-case["shape"][1] // spec.const("TN"))
        return {"y": {"ref": ref, "slack": (64 + 4 * tiles) * F32_ULP * ref}}

    def torch_fn(self, spec, args):
        x = args["x"]
        return lambda: torch.softmax(x, dim=1)


class RmsNorm(Sample):
    name, kernel, outputs = "rms_norm", "rms_norm", ("y",)

    def cases(self, spec, quick):
        tn = spec.const("TN")
        shapes = [(1, 1), (3, tn), (100, tn - 1), (37, tn // 2 + 3)]
        if not quick:
            shapes += [(1000, max(1, tn // 3))]
        return [{"label": fmt_shape(s), "shape": s} for s in shapes]

    def bench_case(self, spec):
        tn = spec.const("TN")
        return {"label": fmt_shape((32768, tn)), "shape": (32768, tn)}

    def grid(self, spec, case, args):
        return (case["shape"][0],)

    def build(self, spec, case, ctx):
        m, n = case["shape"]
        return {"x": ctx.randn((m, n), spec.dtype("x")), "w": ctx.randn((n,), spec.dtype("w")),
                "y": ctx.out("y", (m, n), spec.dtype("y")), "eps": ctx.uniform(1e-6, 1e-4)}

    def reference(self, spec, case, args):
        x, w = args["x"].double(), args["w"].double()
        eps = f32(args["eps"])
        scale = torch.rsqrt((x * x).mean(dim=1, keepdim=True) + eps)
        ref = x * scale * w[None, :]
        return {"y": {"ref": ref, "slack": 64 * F32_ULP * ref.abs()}}

    def torch_fn(self, spec, args):
        x, w, eps = args["x"], args["w"], args["eps"]
        n = x.shape[1]
        return lambda: torch.nn.functional.rms_norm(x, (n,), w, eps)



class NormActivation(Sample):
    """samples/norm_activation.py: RMS normalisation, then the activation ACT picks (an enum
    member in the kernel, selected through a frozen dataclass)."""
    name, kernel, outputs = "norm_activation", "norm_activation", ("y",)
    K = math.sqrt(2.0 / math.pi)
    EPS = 1e-5  # NormActivation.eps, the sample's default

    def cases(self, spec, quick):
        tn = spec.const("TN")
        shapes = [(1, 1), (3, tn), (100, tn - 1), (37, tn // 2 + 3)]
        if not quick:
            shapes += [(1000, max(1, tn // 3))]
        return [{"label": fmt_shape(s), "shape": s} for s in shapes]

    def bench_case(self, spec):
        return {"label": fmt_shape((32768, spec.const("TN"))), "shape": (32768, spec.const("TN"))}

    def grid(self, spec, case, args):
        return (case["shape"][0],)

    def build(self, spec, case, ctx):
        m, n = case["shape"]
        return {"x": ctx.randn((m, n), spec.dtype("x")), "y": ctx.out("y", (m, n), spec.dtype("y"))}

    def reference(self, spec, case, args):
        x = args["x"].double()
        z = x * torch.rsqrt((x * x).mean(dim=1, keepdim=True) + f32(self.EPS))
        act = spec.const("ACT")
        if act == 0:
            ref = z.clamp_min(0.0)
        elif act == 1:
            ref = 0.5 * z * (1.0 + torch.tanh(self.K * (z + 0.044715 * z ** 3)))
        else:
            ref = z / (1.0 + torch.exp(-z))
        return {"y": {"ref": ref, "slack": 64 * F32_ULP * (z.abs() + 1.0)}}

    def torch_fn(self, spec, args):
        x = args["x"]
        n = x.shape[1]
        act = {0: torch.relu, 1: lambda z: torch.nn.functional.gelu(z, approximate="tanh"),
               2: torch.nn.functional.silu}[spec.const("ACT")]
        return lambda: act(torch.nn.functional.rms_norm(x, (n,), None, self.EPS))

class RowStats(Sample):
    name, kernel = "row_stats", "row_stats"
    outputs = ("total", "top1", "col_min", "row_max", "col_low", "col_prod")

    def cases(self, spec, quick):
        tm, tn = spec.const("TM"), spec.const("TN")
        shapes = [(1, 1), (tm, tn), (3 * tm + 1, tn - 3), (5 * tm - 1, tn // 2 + 1)]
        if not quick:
            shapes += [(1000, tn)]
        return [{"label": fmt_shape(s), "shape": s} for s in shapes]

    def bench_case(self, spec):
        return {"label": fmt_shape((1 << 16, spec.const("TN"))), "shape": (1 << 16, spec.const("TN"))}

    def blocks(self, spec, case):
        return cdiv(case["shape"][0], spec.const("TM"))

    def grid(self, spec, case, args):
        return (self.blocks(spec, case),)

    def build(self, spec, case, ctx):
        m, n = case["shape"]
        b, tm, tn = self.blocks(spec, case), spec.const("TM"), spec.const("TN")
        dt = spec.dtype("x")
        x = ctx.randn((m, n), dt) if dt in FLOAT_DTYPES else ctx.randint(-50, 50, (m, n), dt)
        return {"x": x,
                "total": ctx.out("total", (b,), spec.dtype("total")),
                "top1": ctx.out("top1", (b * tm, 1), spec.dtype("top1")),
                "col_min": ctx.out("col_min", (b, tn), spec.dtype("col_min")),
                "row_max": ctx.out("row_max", (b * tm,), spec.dtype("row_max")),
                "col_low": ctx.out("col_low", (b, tn), spec.dtype("col_low")),
                "col_prod": ctx.out("col_prod", (b, tn), spec.dtype("col_prod"))}

    def reference(self, spec, case, args):
        tm, tn = spec.const("TM"), spec.const("TN")
        b = self.blocks(spec, case)
        x = args["x"]
        m, n = x.shape
        padded = torch.zeros((b * tm, tn), dtype=torch.float64 if x.is_floating_point() else torch.int64,
                             device=x.device)
        padded[:m, :n] = x.double() if x.is_floating_point() else x.long()
        blocks = padded.reshape(b, tm, tn)
        total = blocks.sum(dim=(1, 2))
        ref = {"top1": padded.argmax(dim=1, keepdim=True),
               "col_min": blocks.min(dim=1).values,
               "row_max": padded.max(dim=1).values,
               "col_low": blocks.argmin(dim=1)}
        prod = blocks.prod(dim=1)
        if x.is_floating_point():
            ref["total"] = {"ref": total, "slack": 64 * F32_ULP * blocks.abs().sum(dim=(1, 2))}
            ref["col_prod"] = {"ref": prod, "slack": 4 * tm * F32_ULP * prod.abs()}
        else:
            ref["total"] = total
            ref["col_prod"] = (prod + 2**31) % 2**32 - 2**31  # int32 wraps, as in cuTile
        return ref

    def torch_fn(self, spec, args):
        x = args["x"]
        return lambda: (x.sum(), x.argmax(dim=1), x.min(dim=0), x.max(dim=1))


class GroupedAxpy(Sample):
    """samples/array_list.py: lists of arrays indexed at run time; groups of ragged lengths."""
    GROUPS = 4
    name, kernel = "array_list", "grouped_axpy"
    outputs = tuple(f"outs#{g}" for g in range(GROUPS))

    def cases(self, spec, quick):
        t = spec.const("TILE")
        sets = [(1, t, 3 * t + 5, 17), (t - 1, 2 * t + 1, 1, 5 * t)]
        if not quick:
            sets.append((100003, 7, 4 * t, t + 1))
        return [{"label": "/".join(map(str, s)), "lens": s} for s in sets]

    def bench_case(self, spec):
        n = 1 << 24
        lens = (n, n - 1, n // 2, n + 3)
        return {"label": f"4 groups, {fmt_n(sum(lens))}", "lens": lens}

    def grid(self, spec, case, args):
        return (cdiv(max(case["lens"]), spec.const("TILE")),)

    def build(self, spec, case, ctx):
        dt = spec.dtype("xs")
        args = {"xs": [ctx.randn((n,), dt) for n in case["lens"]],
                "ys": [ctx.randn((n,), dt) for n in case["lens"]],
                "outs": [ctx.out(f"outs#{g}", (n,), dt) for g, n in enumerate(case["lens"])],
                "alpha": ctx.uniform(-2.0, 2.0)}
        for g, o in enumerate(args["outs"]):
            args[f"outs#{g}"] = o
        return args

    def reference(self, spec, case, args):
        a = f32(args["alpha"])
        refs = {}
        for g in range(self.GROUPS):
            ax, y = args["xs"][g].double() * a, args["ys"][g].double()
            refs[f"outs#{g}"] = {"ref": ax + y, "slack": 4 * F32_ULP * (ax.abs() + y.abs())}
        return refs

    def torch_fn(self, spec, args):
        xs, ys, outs, a = args["xs"], args["ys"], args["outs"], args["alpha"]
        return lambda: [torch.add(y, x, alpha=a, out=o) for x, y, o in zip(xs, ys, outs)]


class Histogram(Sample):
    """Random bin numbers, some negative or past the last bin (they must count nowhere)."""
    name, kernel, outputs = "histogram", "histogram", ("hist",)

    def cases(self, spec, quick):
        return [dict(c, bins=b, stray=True) for c in cases_1d(spec, quick)
                for b in ((37,) if c["n"] < 1000 else (1000,))]

    def bench_case(self, spec):
        return {"label": fmt_n(1 << 26) + " into 1024 bins", "n": 1 << 26, "bins": 1024,
                "stray": False}

    def build(self, spec, case, ctx):
        lo, hi = (-5, case["bins"] + 5) if case["stray"] else (0, case["bins"])
        return {"x": ctx.randint(lo, hi, (case["n"],), spec.dtype("x")),
                "hist": ctx.out("hist", (case["bins"],), spec.dtype("hist"))}

    def reset(self, args):
        args["hist"].zero_()

    def reference(self, spec, case, args):
        x = args["x"].long()
        valid = x[(x >= 0) & (x < case["bins"])]
        return {"hist": torch.bincount(valid, minlength=case["bins"])}

    def torch_fn(self, spec, args):
        x, bins = args["x"], args["hist"].shape[0]
        return lambda: torch.bincount(x, minlength=bins)


class Embedding(Sample):
    """Token ids with padding tokens and ids outside the table (both read as zero rows)."""
    name, kernel, outputs = "embedding", "embedding", ("out",)

    def cases(self, spec, quick):
        tt, td = spec.const("TT"), spec.const("TD")
        shapes = [(1, 1, 1), (tt, 50, td), (37, 100, td + 44), (1000, 5000, 3 * td - 1)]
        return [{"label": f"{t} tokens, {v}x{d} table", "shape": (t, v, d), "stray": True}
                for t, v, d in shapes]

    def bench_case(self, spec):
        return {"label": "16384 tokens, 32000x4096 table", "shape": (16384, 32000, 4096),
                "stray": False}

    def grid(self, spec, case, args):
        t, _, d = case["shape"]
        return (cdiv(t, spec.const("TT")), cdiv(d, spec.const("TD")))

    def build(self, spec, case, ctx):
        t, v, d = case["shape"]
        lo, hi = (-3, v + 3) if case["stray"] else (0, v)
        return {"ids": ctx.randint(lo, hi, (t,), spec.dtype("ids")),
                "table": ctx.randn((v, d), spec.dtype("table")),
                "out": ctx.out("out", (t, d), spec.dtype("out")),
                "pad_id": min(1, v - 1) if case["stray"] else -1}

    def reference(self, spec, case, args):
        ids, table = args["ids"].long(), args["table"].double()
        ok = (ids >= 0) & (ids < table.shape[0]) & (ids != args["pad_id"])
        rows = table[ids.clamp(0, table.shape[0] - 1)]
        return {"out": {"ref": torch.where(ok[:, None], rows, torch.zeros_like(rows)),
                        "exact": True}}

    def torch_fn(self, spec, args):
        ids, table = args["ids"], args["table"]
        return lambda: table[ids]


def _norm_shapes(spec, quick):
    tn = spec.const("TN")
    shapes = [(1, 1), (3, tn), (100, tn - 1), (37, tn // 2 + 3)]
    if not quick:
        shapes += [(1000, max(1, tn // 3))]
    return [{"label": fmt_shape(s), "shape": s} for s in shapes]


class LayerNormFwd(Sample):
    name, kernel, outputs = "layer_norm", "layer_norm_fwd", ("y", "mean_out", "rstd_out")

    def cases(self, spec, quick):
        return _norm_shapes(spec, quick)

    def bench_case(self, spec):
        tn = spec.const("TN")
        return {"label": fmt_shape((32768, tn)), "shape": (32768, tn)}

    def grid(self, spec, case, args):
        return (case["shape"][0],)

    def build(self, spec, case, ctx):
        m, n = case["shape"]
        return {"x": ctx.randn((m, n), spec.dtype("x"), scale=2.0),
                "w": ctx.randn((n,), spec.dtype("w")), "b": ctx.randn((n,), spec.dtype("b")),
                "y": ctx.out("y", (m, n), spec.dtype("y")),
                "mean_out": ctx.out("mean_out", (m,), "float32"),
                "rstd_out": ctx.out("rstd_out", (m,), "float32"),
                "eps": ctx.uniform(1e-6, 1e-4)}

    def reference(self, spec, case, args):
        x, w, b = args["x"].double(), args["w"].double(), args["b"].double()
        mean = x.mean(dim=1)
        var = ((x - mean[:, None]) ** 2).mean(dim=1)
        rstd = torch.rsqrt(var + f32(args["eps"]))
        xhat = (x - mean[:, None]) * rstd[:, None]
        y = xhat * w + b
        slack = 256 * F32_ULP * (xhat.abs() * w.abs() + b.abs() + 1)
        return {"y": {"ref": y, "slack": slack},
                "mean_out": {"ref": mean, "slack": 64 * F32_ULP * x.abs().mean(dim=1)},
                "rstd_out": {"ref": rstd, "slack": 256 * F32_ULP * rstd}}

    def torch_fn(self, spec, args):
        x, w, b, eps = args["x"], args["w"], args["b"], args["eps"]
        n = x.shape[1]
        return lambda: torch.nn.functional.layer_norm(x, (n,), w, b, eps)


def _layer_norm_stats(x):
    """Float32 mean and rstd as the forward kernel saves them (eps 1e-5)."""
    xd = x.double()
    mean = xd.mean(dim=1)
    rstd = torch.rsqrt(((xd - mean[:, None]) ** 2).mean(dim=1) + 1e-5)
    return mean.float(), rstd.float()


class LayerNormBwdDx(Sample):
    """dx, and the group-wise partial dw/db sums taken under the cross-block locks."""
    name, kernel, outputs = "layer_norm", "layer_norm_bwd_dx", ("dx", "dw_part", "db_part")

    def cases(self, spec, quick):
        return [dict(c, groups=min(c["shape"][0], 16)) for c in _norm_shapes(spec, quick)]

    def bench_case(self, spec):
        tn = spec.const("TN")
        return {"label": fmt_shape((32768, tn)) + ", 128 groups", "shape": (32768, tn),
                "groups": 128}

    def grid(self, spec, case, args):
        return (case["shape"][0],)

    def build(self, spec, case, ctx):
        m, n = case["shape"]
        g = case["groups"]
        dt = spec.dtype("x")
        x = ctx.randn((m, n), dt, scale=2.0)
        mean, rstd = _layer_norm_stats(x)
        zeros = torch.zeros(g, dtype=torch.int32, device="cuda")
        return {"dy": ctx.randn((m, n), spec.dtype("dy")), "x": x,
                "w": ctx.randn((n,), spec.dtype("w")), "mean": mean, "rstd": rstd,
                "dx": ctx.out("dx", (m, n), spec.dtype("dx")),
                "dw_part": ctx.out("dw_part", (g, n), "float32"),
                "db_part": ctx.out("db_part", (g, n), "float32"),
                "locks": zeros, "count": zeros.clone()}

    def reset(self, args):
        args["locks"].zero_()
        args["count"].zero_()

    def reference(self, spec, case, args):
        dy, x, w = args["dy"].double(), args["x"].double(), args["w"].double()
        mean, rstd = args["mean"].double()[:, None], args["rstd"].double()[:, None]
        xhat = (x - mean) * rstd
        wdy = w * dy
        c1 = (xhat * wdy).mean(dim=1, keepdim=True)
        c2 = wdy.mean(dim=1, keepdim=True)
        dx = (wdy - (xhat * c1 + c2)) * rstd
        g = case["groups"]
        group = torch.arange(x.shape[0], device=x.device) % g
        dw = torch.zeros((g, x.shape[1]), dtype=torch.float64, device=x.device)
        db = torch.zeros_like(dw)
        dw.index_add_(0, group, dy * xhat)
        db.index_add_(0, group, dy)
        # Partial sums are added in lock order: allow float32 rounding of every addition.
        rows = cdiv(x.shape[0], g)
        dw_abs = torch.zeros_like(dw).index_add_(0, group, (dy * xhat).abs())
        db_abs = torch.zeros_like(db).index_add_(0, group, dy.abs())
        mag = (wdy.abs() + xhat.abs() * (xhat * wdy).abs().mean(dim=1, keepdim=True) + 1) * rstd
        return {"dx": {"ref": dx, "slack": 256 * F32_ULP * mag},
                "dw_part": {"ref": dw, "slack": 4 * rows * F32_ULP * dw_abs},
                "db_part": {"ref": db, "slack": 4 * rows * F32_ULP * db_abs}}

    def torch_fn(self, spec, args):
        dy, x, w = args["dy"], args["x"], args["w"]
        mean, rstd = args["mean"][:, None], args["rstd"][:, None]
        n = x.shape[1]
        if x.dtype != torch.float32:  # aten wants the statistics in the input's accumulation type
            mean, rstd = mean.float(), rstd.float()
        return lambda: torch.ops.aten.native_layer_norm_backward(
            dy, x, [n], mean, rstd, w, None, [True, True, False])


class LayerNormBwdDwdb(Sample):
    """Column sums of the (groups, N) partials."""
    name, kernel, outputs = "layer_norm", "layer_norm_bwd_dwdb", ("dw", "db")

    def cases(self, spec, quick):
        tg, tn = spec.const("TG"), spec.const("TN")
        shapes = [(1, 1), (tg, tn), (3 * tg + 1, 5 * tn - 3), (tg - 1, 2 * tn + 7), (128, 4096)]
        return [{"label": fmt_shape(s), "shape": s} for s in shapes]

    def bench_case(self, spec):
        return {"label": fmt_shape((128, 8192)), "shape": (128, 8192)}

    def grid(self, spec, case, args):
        return (cdiv(case["shape"][1], spec.const("TN")),)

    def build(self, spec, case, ctx):
        g, n = case["shape"]
        return {"dw_part": ctx.randn((g, n), "float32"), "db_part": ctx.randn((g, n), "float32"),
                "dw": ctx.out("dw", (n,), spec.dtype("dw")), "db": ctx.out("db", (n,), spec.dtype("db"))}

    def reference(self, spec, case, args):
        dw, db = args["dw_part"].double(), args["db_part"].double()
        g = dw.shape[0]
        return {"dw": {"ref": dw.sum(dim=0), "slack": 2 * g * F32_ULP * dw.abs().sum(dim=0)},
                "db": {"ref": db.sum(dim=0), "slack": 2 * g * F32_ULP * db.abs().sum(dim=0)}}

    def torch_fn(self, spec, args):
        dw, db = args["dw_part"], args["db_part"]
        return lambda: (dw.sum(dim=0), db.sum(dim=0))


class AtomicMix(Sample):
    """atomic_max/min/and/or/xor into bins (some lanes without a bin), xchg and cas per lane."""
    name, kernel = "atomic_mix", "atomic_mix"
    outputs = ("vmax", "vmin", "vand", "vor", "vxor", "slots", "old_slots", "flags", "old_flags")

    def cases(self, spec, quick):
        return [dict(c, bins=b) for c in cases_1d(spec, quick) if c["n"] <= 3_000_017
                for b in ((5,) if c["n"] < 1000 else (97,))]

    def bench_case(self, spec):
        return {"label": fmt_n(1 << 20) + " into 97 bins", "n": 1 << 20, "bins": 97}

    def build(self, spec, case, ctx):
        n, nb = case["n"], case["bins"]
        dt = spec.dtype("x")
        big = 1 << 30 if dt == "int32" else 1 << 62
        args = {"x": ctx.randint(-big, big, (n,), dt),
                "bins": ctx.randint(-2, nb + 2, (n,), spec.dtype("bins")),
                "slots0": ctx.randint(-big, big, (n,), dt), "flags0": ctx.randint(0, 2, (n,), dt)}
        for o in self.outputs:
            args[o] = ctx.out(o, (nb,) if o.startswith("v") else (n,), dt)
        return args

    def reset(self, args):
        info = torch.iinfo(args["vmax"].dtype)
        args["vmax"].fill_(info.min)
        args["vmin"].fill_(info.max)
        args["vand"].fill_(-1)
        args["vor"].zero_()
        args["vxor"].zero_()
        args["slots"].copy_(args["slots0"])
        args["flags"].copy_(args["flags0"])

    def reference(self, spec, case, args):
        import numpy as np
        x, b = args["x"].cpu().numpy(), args["bins"].cpu().numpy().astype(np.int64)
        nb = case["bins"]
        keep = (b >= 0) & (b < nb)
        x, b = x[keep], b[keep]
        info = np.iinfo(x.dtype)
        vmax, vmin = np.full(nb, info.min, x.dtype), np.full(nb, info.max, x.dtype)
        vand, vor, vxor = np.full(nb, -1, x.dtype), np.zeros(nb, x.dtype), np.zeros(nb, x.dtype)
        np.maximum.at(vmax, b, x)
        np.minimum.at(vmin, b, x)
        np.bitwise_and.at(vand, b, x)
        np.bitwise_or.at(vor, b, x)
        np.bitwise_xor.at(vxor, b, x)
        dev = args["x"].device
        ref = {k: torch.from_numpy(v).to(dev) for k, v in
               (("vmax", vmax), ("vmin", vmin), ("vand", vand), ("vor", vor), ("vxor", vxor))}
        ref.update(slots=args["x"], old_slots=args["slots0"],
                   flags=torch.ones_like(args["flags0"]), old_flags=args["flags0"])
        return ref


SAMPLES = {s.name: s for s in (VectorAdd(), RowBiasScale(), FusedExpMulAdd(), Gelu(), TracedScale(), PadProbe(),
                               IntSemantics(), BatchedAffine(), TileWalk(), UnaryMath(), OnlineSoftmax(),
                               RmsNorm(), NormActivation(), RowStats(), GroupedAxpy())}
# Samples whose file holds several kernels: a dict from kernel name to its description (one
# description may serve several kernels).
SAMPLES.update({"histogram": Histogram(), "embedding": Embedding(), "atomic_mix": AtomicMix(),
                "softmax": {s.kernel: s for s in (Softmax(), SoftmaxFastMath())},
                "layer_norm": {s.kernel: s for s in (LayerNormFwd(), LayerNormBwdDx(),
                                                     LayerNormBwdDwdb())}})

# Scans, custom reductions and layout operations (issue 3): tests/gpu/samples_ops.py.
from samples_ops import make_samples  # noqa: E402 - needs the helpers above
SAMPLES.update(make_samples(sys.modules[__name__]))
# Ragged segments through Array.slice: tests/gpu/samples_ragged.py.
import samples_ragged  # noqa: E402
SAMPLES.update(samples_ragged.make_samples(sys.modules[__name__]))


# ================================================================================================
# Runners: the generated libraries through the C ABI, or real cuTile
# ================================================================================================

CUDA_ERRORS = {1: "cudaErrorInvalidValue", 2: "cudaErrorMemoryAllocation",
               9: "cudaErrorInvalidConfiguration", 98: "cudaErrorInvalidDeviceFunction",
               209: "cudaErrorNoKernelImageForDevice", 700: "cudaErrorIllegalAddress",
               701: "cudaErrorLaunchOutOfResources", 719: "cudaErrorLaunchFailure"}


def ctype_of(dtype):
    return {"bool": ctypes.c_bool, "int8": ctypes.c_int8, "int16": ctypes.c_int16,
            "int32": ctypes.c_int32, "int64": ctypes.c_int64, "uint8": ctypes.c_uint8,
            "uint16": ctypes.c_uint16, "uint32": ctypes.c_uint32, "uint64": ctypes.c_uint64,
            "float16": ctypes.c_float, "bfloat16": ctypes.c_float, "float32": ctypes.c_float,
            "float64": ctypes.c_double}[dtype]


def check_args(spec, args):
    for p in spec.order:
        c = spec.params[p]
        if c.kind == "const":
            continue
        if p not in args:
            raise ValueError(f"{spec.name}: no value for parameter {p}")
        v = args[p]
        if c.kind == "list":
            if not isinstance(v, (list, tuple)) or not all(isinstance(t, torch.Tensor) for t in v):
                raise TypeError(f"{spec.name}: {p} must be a list of tensors")
            for t in v:
                if t.dtype != torch_dtype(c.dtype) or t.dim() != c.rank:
                    raise TypeError(f"{spec.name}: an item of {p} is {t.dtype}[{t.dim()}-d], "
                                    f"the specialization wants {c.text}")
        if c.kind == "array":
            if not isinstance(v, torch.Tensor):
                raise TypeError(f"{spec.name}: {p} must be a tensor")
            if v.dtype != torch_dtype(c.dtype) or v.dim() != c.rank:
                raise TypeError(f"{spec.name}: {p} is {v.dtype}[{v.dim()}-d], "
                                f"the specialization wants {c.text}")
            for d, (want, got) in enumerate(zip(c.dims, v.shape)):
                if want is not None and want != got:
                    raise ValueError(f"{spec.name}: {p}.shape[{d}] = {got}, static extent {want}")


def grid3(grid):
    g = [int(x) for x in grid] + [1] * (3 - len(grid))
    if any(x <= 0 for x in g):
        raise ValueError(f"empty grid {g}")
    return g


class Tile2cuRunner:
    label = "tile2cu"

    def __init__(self, opts):
        self.gen = Path(opts.gen).resolve()
        self.runtime = Path(opts.runtime).resolve()
        self.arch = opts.arch
        self.nvcc = opts.nvcc or os.environ.get("NVCC") or shutil.which("nvcc") or \
            str(Path(os.environ.get("CUDA_HOME", "/usr/local/cuda")) / "bin" / "nvcc")
        self.extra = opts.nvcc_flag or []
        self.jobs = opts.jobs
        self.reuse_libs = opts.reuse_libs
        self.libs = {}       # sample -> ctypes.CDLL
        self.build_log = {}  # sample -> (ok, seconds, message)
        self.fns = {}

    def arch_flags(self):
        m = re.fullmatch(r"sm_(\d+)([a-z]?)", self.arch)
        if not m:
            raise ValueError(f"--arch {self.arch}: expected sm_<digits>[suffix]")
        if m.group(2):
            num = m.group(1) + m.group(2)
            return [f"-gencode=arch=compute_{num},code=sm_{num}"]
        return [f"-arch={self.arch}"]

    def nvcc_version(self):
        try:
            out = subprocess.run([self.nvcc, "--version"], capture_output=True, text=True,
                                 timeout=60).stdout
            return out.strip().splitlines()[-1] if out.strip() else "?"
        except (OSError, subprocess.SubprocessError):
            return "not found"

    def _build_one(self, sample):
        cu = self.gen / f"{sample}.cu"
        so = self.gen / f"{sample}.so"
        if not cu.exists():
            return sample, False, 0.0, f"{cu} is missing (run the transpiler first)"
        note = "" if (self.gen / f"{sample}.cuh").exists() else f"(note: {sample}.cuh missing) "
        if self.reuse_libs and so.exists():
            return sample, True, 0.0, "(reused)"
        cmd = [self.nvcc, "-O3", "-std=c++17", "-shared", "-Xcompiler", "-fPIC",
               f"-I{self.runtime}", f"-I{self.gen}", *self.arch_flags(), *self.extra,
               str(cu), "-o", str(so)]
        t0 = time.time()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
        except (OSError, subprocess.SubprocessError) as e:
            return sample, False, time.time() - t0, f"{note}nvcc could not run: {e}"
        dt = time.time() - t0
        if p.returncode != 0:
            log = (p.stdout + p.stderr).strip()
            return sample, False, dt, f"{note}nvcc failed ({' '.join(cmd)}):\n" + log[-4000:]
        return sample, True, dt, note.strip()

    def prepare(self, samples):
        print(f"building {len(samples)} libraries with {self.nvcc} {' '.join(self.arch_flags())}",
              flush=True)
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as pool:
            for sample, ok, dt, msg in pool.map(self._build_one, samples):
                self.build_log[sample] = (ok, dt, msg)
                print(f"  {'built ' if ok else 'FAILED'} {sample}.so ({dt:.1f} s) {msg}",
                      flush=True)
                if ok:
                    try:
                        self.libs[sample] = ctypes.CDLL(str(self.gen / f"{sample}.so"))
                    except OSError as e:
                        self.build_log[sample] = (False, dt, f"cannot load: {e}")

    def unavailable(self, spec):
        ok, _, msg = self.build_log.get(spec.sample, (False, 0, "not built"))
        if not ok or spec.sample not in self.libs:
            return msg or "not built"
        try:
            self.symbol(spec)
        except AttributeError:
            return f"symbol tile2cu_{spec.name} not found in {spec.sample}.so"
        return None

    def symbol(self, spec):
        # Keyed by library too: experiment variants (triton_baselines.py) hold the same spec names.
        key = (spec.sample, spec.name)
        if key not in self.fns:
            fn = getattr(self.libs[spec.sample], f"tile2cu_{spec.name}")
            types = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint]
            for p in spec.order:
                c = spec.params[p]
                if c.kind == "array":
                    types += [ctypes.c_void_p] + [ctypes.c_int64] * (2 * c.rank)
                elif c.kind == "list":  # host table: per item data, shape..., strides...
                    types += [ctypes.c_void_p, ctypes.c_int32]
                elif c.kind == "scalar":
                    types.append(ctype_of(c.dtype))
            fn.argtypes = types
            fn.restype = ctypes.c_int
            self.fns[key] = fn
        return self.fns[key]

    def list_argument(self, spec, table, words):
        """A list argument as the C entry takes it: the address of its host table."""
        return ctypes.addressof(table)

    def bind(self, spec, grid, args):
        """-> a no-argument callable that launches once and returns the cudaError_t."""
        check_args(spec, args)
        fn = self.symbol(spec)
        flat = [torch.cuda.current_stream().cuda_stream, *grid3(grid)]
        tables = []  # the list tables must outlive every call of the returned launcher
        for p in spec.order:
            c = spec.params[p]
            v = args.get(p)
            if c.kind == "list":
                words = [w for t in v for w in (t.data_ptr(), *t.shape, *t.stride())]
                table = (ctypes.c_int64 * max(1, len(words)))(*words)
                tables.append(table)
                flat += [self.list_argument(spec, table, words), len(v)]
            elif c.kind == "array":
                flat += [v.data_ptr(), *v.shape, *v.stride()]
            elif c.kind == "scalar":
                flat.append(float(v) if c.dtype in FLOAT_DTYPES else v)
        return lambda: (tables, fn(*flat))[1]


class NvrtcRunner(Tile2cuRunner):
    """The Python launcher's fast path (issue 29): each GEN/<sample>.cu compiled by NVRTC (device
    code only) and every specialization launched through the CUDA driver from the transpiler's
    launch plan (`tile2cu --emit=plan`, python/tile2cu/_launch_plan.py), with the same flat
    arguments as the C entry (lists and TMA tensor maps included). A specialization whose plan
    needs its host launcher runs through the nvcc library, as the launcher falls back; `paths`
    says which."""

    label = "tile2cu (NVRTC)"

    def __init__(self, opts):
        super().__init__(opts)
        sys.path.insert(0, str(REPO / "python"))
        from tile2cu import _build, _device, _driver_api, _launch_plan, _nvrtc, _nvrtc_build
        self.m = dict(build=_build, device=_device, driver=_driver_api, plan=_launch_plan,
                      nvrtc=_nvrtc, nvrtc_build=_nvrtc_build)
        self.tool = opts.tool or str(_build.find_tool())
        self.plans = {}      # (sample, spec) -> plan
        self.entries = {}    # (sample, spec) -> entry
        self.nvrtc_log = {}  # sample -> (ok, seconds, message)
        self.paths = {}      # spec name -> "nvrtc" or "nvcc (why)"

    def nvcc_version(self):
        return f"NVRTC {'.'.join(map(str, self.m['nvrtc'].version()))}; fallback {super().nvcc_version()}"

    def _compile_one(self, sample):
        m = self.m
        try:
            out = subprocess.run([self.tool, str(Path(REPO / "samples" / f"{sample}.py")), "--emit=plan"],
                                 capture_output=True, text=True, check=True).stdout
            specs = json.loads(out)["specializations"]
            plans = {p["spec"]: p for p in specs if not p["host_launcher_only"]}
            cu = self.gen / f"{sample}.cu"
            exprs = sorted({e for p in plans.values() for e in p["kernels"].values()})
            t0 = time.time()
            compiled = m["nvrtc"].compile_source(
                cu.read_text(), cu.name, self.arch,
                [f"-I{self.runtime}", *m["nvrtc_build"].options(self.gen)], exprs) if exprs else None
            dt = time.time() - t0
        except Exception as e:  # noqa: BLE001 - reported per sample
            return sample, {}, None, False, 0.0, f"NVRTC path failed: {type(e).__name__}: {e}"
        host_only = {p["spec"]: p["host_launcher_only"] for p in specs if p["host_launcher_only"]}
        return sample, plans, (compiled, host_only), True, dt, ""

    def prepare(self, samples):
        arch = self.arch
        print(f"compiling {len(samples)} samples with NVRTC for {arch}", flush=True)
        fallback = []
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as pool:
            for sample, plans, result, ok, dt, msg in pool.map(self._compile_one, samples):
                self.nvrtc_log[sample] = (ok, dt, msg)
                print(f"  {'compiled' if ok else 'FAILED  '} {sample} ({dt:.1f} s) {msg}", flush=True)
                if not ok:
                    continue
                compiled, host_only = result
                for name, plan in plans.items():
                    self.plans[(sample, name)] = plan
                    self.entries[(sample, name)] = self.m["plan"].make_entry(
                        plan, {arch: compiled.image}, compiled.lowered, lambda: arch)
                    self.paths[name] = "nvrtc"
                for name, why in host_only.items():
                    self.paths[name] = f"nvcc ({why})"
                if host_only:
                    fallback.append(sample)
        by_path = {}
        for name, path in sorted(self.paths.items()):
            by_path.setdefault(path, []).append(name)
        for path, names in by_path.items():
            print(f"  {path}: {len(names)} specializations ({', '.join(names[:6])}{', ...' if len(names) > 6 else ''})")
        if fallback:
            super().prepare(fallback)

    def unavailable(self, spec):
        if (spec.sample, spec.name) in self.entries:
            return None
        ok, _, msg = self.nvrtc_log.get(spec.sample, (False, 0, "not compiled"))
        if not ok:
            return msg
        return super().unavailable(spec)

    def symbol(self, spec):
        entry = self.entries.get((spec.sample, spec.name))
        return entry if entry is not None else super().symbol(spec)

    def list_argument(self, spec, table, words):
        """The NVRTC entry reads a list's words (it uploads them itself); the C entry its table."""
        if (spec.sample, spec.name) in self.entries:
            return words
        return super().list_argument(spec, table, words)


class CutileRunner:
    label = "cuTile"

    def __init__(self, opts):
        import cuda.tile as ct  # noqa: F401  (fails early when cuTile is not installed)
        self.ct = ct
        self.samples_dir = Path(opts.samples_dir)
        self.mods = {}
        self.errors = {}

    def nvcc_version(self):
        return "n/a (cuTile backend)"

    def prepare(self, samples):
        for s in samples:
            path = self.samples_dir / f"{s}.py"
            try:
                spec = importlib.util.spec_from_file_location(f"tile2cu_sample_{s}", path)
                mod = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(mod)
                self.mods[s] = mod
            except Exception as e:  # noqa: BLE001 - report whatever the import raised
                self.errors[s] = f"import failed: {type(e).__name__}: {e}"

    def unavailable(self, spec):
        if spec.sample in self.errors:
            return self.errors[spec.sample]
        if not hasattr(self.mods.get(spec.sample), spec.kernel):
            return f"{spec.sample}.py has no kernel {spec.kernel}"
        return None

    def bind(self, spec, grid, args):
        check_args(spec, args)
        kernel = getattr(self.mods[spec.sample], spec.kernel)
        vals = tuple(spec.params[p].value if spec.params[p].kind == "const" else args[p]
                     for p in spec.order)
        g = tuple(grid3(grid))
        stream = torch.cuda.current_stream()

        def launch():
            self.ct.launch(stream, g, kernel, vals)
            return 0
        return launch


# ================================================================================================
# Correctness
# ================================================================================================

class ContextLost(RuntimeError):
    pass


def sync_or_raise():
    """Synchronize; on an asynchronous CUDA error, find out whether the context survived."""
    try:
        torch.cuda.synchronize()
    except RuntimeError as e:
        try:
            torch.zeros(1, device="cuda").add_(1)
            torch.cuda.synchronize()
        except RuntimeError:
            raise ContextLost(str(e)) from e
        raise


def case_seed(base, *parts):
    import zlib
    return (base + zlib.crc32("/".join(str(p) for p in parts).encode())) % (1 << 63)


def make_ctx(seed):
    gen = torch.Generator(device="cuda")
    gen.manual_seed(seed)
    return Ctx(gen, random.Random(seed))


def check_case(runner, sample, spec, case, seed):
    """Run one case twice (two poisons) and compare every output. -> result dict"""
    res = {"case": case["label"], "ok": True, "outputs": {}, "error": None}
    ctx = make_ctx(seed)
    args = sample.build(spec, case, ctx)
    refs = sample.reference(spec, case, args)
    grid = sample.grid(spec, case, args)
    res["grid"] = list(grid3(grid))
    call = runner.bind(spec, grid, args)
    sync_or_raise()
    for k in (0, 1):
        for b in ctx.outputs.values():
            b.poison(k)
        if hasattr(sample, "reset"):  # state the kernel expects zeroed (counters, locks)
            sample.reset(args)
        rc = call()
        if rc != 0:
            res.update(ok=False, error=f"returned {rc} ({CUDA_ERRORS.get(rc, 'cudaError')})")
            break
        sync_or_raise()
        for o in sample.outputs:
            r = refs[o] if isinstance(refs[o], dict) else {"ref": refs[o]}
            c = compare(args[o], r["ref"], spec.dtype(o), slack=r.get("slack"),
                        exact=r.get("exact", False), zero_sign=r.get("zero_sign", False),
                        norm_tol=r.get("norm_tol"))
            if not ctx.outputs[o].untouched_ok(k):
                c["ok"] = False
                c["first_bad"] = (c["first_bad"] or "") + " [wrote outside the array]"
            prev = res["outputs"].get(o)
            if prev is None or not c["ok"] or c["max_err"] > prev["max_err"]:
                res["outputs"][o] = c
            if not c["ok"]:
                res["ok"] = False
        if not res["ok"]:
            break
    del args, refs, ctx
    return res


# ================================================================================================
# Timing
# ================================================================================================

def time_ms(fn, warmup, iters):
    """Median and minimum of `iters` timed calls of fn(i) (CUDA events on the current stream)."""
    for i in range(warmup):
        fn(i)
    sync_or_raise()
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
              for _ in range(iters)]
    for i, (start, end) in enumerate(events):
        start.record()
        fn(warmup + i)
        end.record()
    sync_or_raise()
    times = [s.elapsed_time(e) for s, e in events]
    return statistics.median(times), min(times)


def time_interleaved(fns, iters, rounds=1, before=None):
    """Median ms of each function in `fns` (name -> fn()), the calls interleaved one by one in a
    rotating order, so that clock changes as the GPU heats up reach every contender alike.
    `before()`, when given, runs untimed ahead of every timed call, so that each call starts from
    the same state: without it, a contender always timed after the same other one inherits that
    one's leftovers (for memory-bound kernels: its dirty L2 lines, or an idle gap after a slow
    launch), which moved identical row kernels by up to 0.7 % (docs/perf-notes.md, round 9).
    -> (name -> median over all calls, name -> [median of each round])"""
    names = list(fns)
    for fn in fns.values():
        fn()
    sync_or_raise()
    per_round = {name: [] for name in names}
    every = {name: [] for name in names}
    for _ in range(rounds):
        events = []
        for i in range(iters):
            for name in names[i % len(names):] + names[:i % len(names)]:
                if before is not None:
                    before()
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record()
                fns[name]()
                end.record()
                events.append((name, start, end))
        sync_or_raise()
        times = {name: [] for name in names}
        for name, start, end in events:
            times[name].append(start.elapsed_time(end))
        for name in names:
            per_round[name].append(statistics.median(times[name]))
            every[name] += times[name]
    return {name: statistics.median(t) for name, t in every.items()}, per_round


def working_set_bytes(args):
    """Bytes of every argument tensor, list items included ("outs#2" aliases are not counted)."""
    tensors = [v for k, v in args.items() if isinstance(v, torch.Tensor) and "#" not in k]
    tensors += [t for v in args.values() if isinstance(v, list) for t in v]
    return sum(t.numel() * t.element_size() for t in tensors)


def bench_spec(runner, sample, spec, seed, opts):
    """Check at the benchmark size, then time tile2cu and torch. -> dict"""
    case = sample.bench_case(spec)
    out = {"case": case["label"]}
    check = check_case(runner, sample, spec, case, case_seed(seed, spec.name, "bench"))
    out["check"] = check
    torch.cuda.empty_cache()
    ctx0 = make_ctx(case_seed(seed, spec.name, "bench", 0))
    sets = [sample.build(spec, case, ctx0)]
    wset = working_set_bytes(sets[0])
    nsets = 1
    if wset < 4 * DEVICE["l2"]:  # would (partly) stay in L2: rotate through fresh copies
        nsets = min(64, cdiv(4 * DEVICE["l2"], max(wset, 1)) + 1)
        for i in range(1, nsets):
            sets.append(sample.build(spec, case, make_ctx(case_seed(seed, spec.name, "b", i))))
    out["buffer_sets"] = nsets
    out["bytes_per_call"] = wset
    grid = sample.grid(spec, case, sets[0])
    calls = [runner.bind(spec, grid, a) for a in sets]

    def run_tile(i):
        if hasattr(sample, "reset"):  # timed too: zeroing is part of every launch
            sample.reset(sets[i % nsets])
        rc = calls[i % nsets]()
        if rc != 0:
            raise RuntimeError(f"{spec.name} returned {rc} during timing")
    iters = max(50, opts.iters)
    out["ms"], out["ms_min"] = time_ms(run_tile, opts.warmup, iters)
    tfns = [sample.torch_fn(spec, a) for a in sets]
    if tfns[0] is not None:
        out["torch_ms"], out["torch_ms_min"] = time_ms(lambda i: tfns[i % nsets](), opts.warmup,
                                                       iters)
        out["ratio"] = out["torch_ms"] / out["ms"]
    out["gbps"] = wset / (out["ms"] * 1e-3) / 1e9
    del sets, calls, tfns
    torch.cuda.empty_cache()
    return out


def copy_bandwidth(n_bytes, opts):
    src = torch.empty(n_bytes // 4, dtype=torch.float32, device="cuda").normal_()
    dst = torch.empty_like(src)
    ms, _ = time_ms(lambda i: dst.copy_(src), opts.warmup, max(50, opts.iters))
    del src, dst
    torch.cuda.empty_cache()
    return {"bytes": n_bytes, "ms": ms, "gbps": 2 * n_bytes / (ms * 1e-3) / 1e9}


# ================================================================================================
# Driver
# ================================================================================================

def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gen", help="folder with the generated <sample>.cu / .cuh "
                    "(the .so files are written there too)")
    ap.add_argument("--runtime", default=str(REPO / "runtime"),
                    help="runtime include folder (default: %(default)s)")
    ap.add_argument("--arch", default="sm_90a",
                    help="sm_90a -> -gencode=arch=compute_90a,code=sm_90a; sm_80 -> -arch=sm_80")
    ap.add_argument("--commit", default="unknown", help="recorded in the JSON results")
    ap.add_argument("--samples-dir", default=str(REPO / "samples"),
                    help="where the .py/.sigs samples are (default: %(default)s)")
    ap.add_argument("--only", default="", help="comma-separated sample names to run")
    ap.add_argument("--backend", choices=("tile2cu", "nvrtc", "cutile"), default="tile2cu",
                    help="call the generated libraries (default), launch through NVRTC and the "
                         "launch plan as the Python launcher does (nvrtc), or real cuTile")
    ap.add_argument("--tool", default=None, help="tile2cu binary for --backend nvrtc's launch plans "
                                                 "(default: $TILE2CU_BIN or build/tile2cu)")
    ap.add_argument("--nvcc", default=None, help="nvcc to use (default: $NVCC or PATH)")
    ap.add_argument("--nvcc-flag", action="append", help="extra nvcc flag (repeatable)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 4, help="parallel nvcc runs")
    ap.add_argument("--reuse-libs", action="store_true",
                    help="load GEN/<sample>.so where it exists instead of building it (runs that "
                         "share one build, such as tests/gpu/sanitize_gpu.sh)")
    ap.add_argument("--seed", type=int, default=None, help="default: taken from the clock")
    ap.add_argument("--quick", action="store_true", help="fewer sizes per sample")
    ap.add_argument("--no-bench", action="store_true", help="correctness only")
    ap.add_argument("--iters", type=int, default=100, help="timed runs per measurement (>= 50)")
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--json", default=None,
                    help="results file (default: $OUT/gpu_results.json when OUT is set)")
    return ap.parse_args(argv)


def fmt_err(x):
    if isinstance(x, int):
        return str(x)
    if x == 0:
        return "0"
    return f"{x:.2e}"


def headline(results, copy_bw):
    """(a) vector add vs torch.add and copy; (b) the fused chain vs eager torch."""
    lines, data = [], {"copy": copy_bw, "vector_add": [], "fused": []}
    for r in results:
        b = r.get("bench")
        if not b or "ms" not in b:
            continue
        spec = r["_spec"]
        if r["sample"] == "vector_add" and spec.dtype("a") == "float32":
            n = b["bytes_per_call"] // 12
            bw = b["bytes_per_call"] / (b["ms"] * 1e-3) / 1e9
            tbw = b["bytes_per_call"] / (b["torch_ms"] * 1e-3) / 1e9
            frac = bw / copy_bw["gbps"] if copy_bw else float("nan")
            ok = b["ratio"] >= TARGETS["vector_add"]
            d = {"spec": r["spec"], "n": n, "ms": b["ms"], "torch_ms": b["torch_ms"],
                 "ratio": b["ratio"], "gbps": bw, "torch_gbps": tbw, "copy_fraction": frac,
                 "target": TARGETS["vector_add"], "meets_target": ok}
            data["vector_add"].append(d)
            lines.append(
                f"(a) {r['spec']}: n={fmt_n(n)} fp32 add {b['ms']:.3f} ms = {bw:.0f} GB/s "
                f"({frac:.2f} of copy {copy_bw['gbps']:.0f} GB/s); torch.add {b['torch_ms']:.3f} ms"
                f" = {tbw:.0f} GB/s; ratio torch/tile2cu {b['ratio']:.3f} "
                f"[target >= {TARGETS['vector_add']}: {'OK' if ok else 'MISS'}]")
        if r["sample"] == "fused_exp_mul_add" and spec.dtype("a") in ("bfloat16", "float16"):
            ok = b["ratio"] >= TARGETS["fused"]
            bw = b["bytes_per_call"] / (b["ms"] * 1e-3) / 1e9
            frac = bw / copy_bw["gbps"] if copy_bw else float("nan")
            d = {"spec": r["spec"], "ms": b["ms"], "torch_ms": b["torch_ms"],
                 "speedup": b["ratio"], "gbps": bw, "copy_fraction": frac,
                 "torch_native_ms": b.get("torch_native_ms"),
                 "target": TARGETS["fused"], "meets_target": ok}
            data["fused"].append(d)
            native = (f"; eager in {spec.dtype('a')} (torch.exp(a) * b + c) "
                      f"{b['torch_native_ms']:.3f} ms" if b.get("torch_native_ms") else "")
            lines.append(
                f"(b) {r['spec']}: {b['case']} exp(a)*b+c {b['ms']:.3f} ms = {bw:.0f} GB/s "
                f"({frac:.2f} of copy); eager torch (f32 math) {b['torch_ms']:.3f} ms{native}; "
                f"speedup {b['ratio']:.2f}x [target >= {TARGETS['fused']}x: "
                f"{'OK' if ok else 'MISS'}]")
    lines.sort(key=lambda line: line[:3])  # (a) before (b)
    return lines, data


def main(argv=None):
    global torch
    opts = parse_args(argv)
    try:
        import torch as _torch
    except ImportError:
        print("no GPU: skipped")
        print("(torch is not installed)", file=sys.stderr)
        return 0
    torch = _torch
    if not torch.cuda.is_available():
        print("no GPU: skipped")
        return 0
    if opts.backend in ("tile2cu", "nvrtc") and not opts.gen:
        print("error: --gen DIR is required", file=sys.stderr)
        return 2

    props = torch.cuda.get_device_properties(0)
    DEVICE.update(sms=props.multi_processor_count,
                  l2=getattr(props, "L2_cache_size", 50 << 20) or (50 << 20),
                  name=torch.cuda.get_device_name(0))
    seed = opts.seed if opts.seed is not None else int(time.time() * 1000) % (1 << 31)
    print(f"device: {DEVICE['name']} ({DEVICE['sms']} SMs, L2 {DEVICE['l2'] >> 20} MiB), "
          f"torch {torch.__version__}, backend {opts.backend}, seed {seed} "
          f"(rerun with --seed {seed})", flush=True)

    only = {s for s in opts.only.split(",") if s}
    found, errors = discover(opts.samples_dir, only)
    failed = bool(errors)
    for e in errors:
        print(f"FAIL sidecar: {e}")

    try:
        runner = {"tile2cu": Tile2cuRunner, "nvrtc": NvrtcRunner, "cutile": CutileRunner}[opts.backend](opts)
    except ImportError as e:
        print(f"error: backend {opts.backend} unavailable: {e}", file=sys.stderr)
        return 2
    runner.prepare([s for s, _ in found])

    results = []
    lost = None
    for sample_name, specs in found:
        for spec in specs:
            sample = SAMPLES.get(sample_name)
            if isinstance(sample, dict):
                sample = sample.get(spec.kernel)
            elif sample is not None and sample.kernel != spec.kernel:
                sample = None
            r = {"sample": sample_name, "spec": spec.name, "kernel": spec.kernel,
                 "signature": spec.line, "cases": [], "status": "PASS", "error": None,
                 "_spec": spec}
            results.append(r)
            if sample is None:
                r.update(status="FAIL", error=f"no test description for {sample_name}."
                                              f"{spec.kernel} in run_samples.py")
            elif lost:
                r.update(status="FAIL", error=f"not run: CUDA context lost earlier ({lost})")
            elif (why := runner.unavailable(spec)):
                r.update(status="FAIL", error=why)
            if r["status"] == "FAIL":
                print(f"FAIL {spec.name}: {r['error'].splitlines()[0]}", flush=True)
                continue
            t0 = time.time()
            try:
                for i, case in enumerate(sample.cases(spec, opts.quick)):
                    c = check_case(runner, sample, spec, case, case_seed(seed, spec.name, i))
                    r["cases"].append(c)
                    if not c["ok"]:
                        r["status"] = "FAIL"
                if not opts.no_bench:
                    b = bench_spec(runner, sample, spec, seed, opts)
                    r["bench"] = b
                    r["cases"].append(dict(b["check"], case=b["check"]["case"] + " (bench)"))
                    if not b["check"]["ok"]:
                        r["status"] = "FAIL"
                    if sample_name == "fused_exp_mul_add" and spec.dtype("a") != "float32":
                        args = sample.build(spec, sample.bench_case(spec), make_ctx(seed))
                        a, bb, c = args["a"], args["b"], args["c"]
                        r["bench"]["torch_native_ms"], _ = time_ms(
                            lambda i: torch.exp(a) * bb + c, opts.warmup, max(50, opts.iters))
                        del args, a, bb, c
                        torch.cuda.empty_cache()
            except ContextLost as e:
                lost = str(e).splitlines()[0]
                r.update(status="FAIL", error=f"CUDA context lost: {lost}")
            except Exception as e:  # noqa: BLE001 - any failure of one spec is reported, not fatal
                r.update(status="FAIL", error=f"{type(e).__name__}: {e}")
                traceback.print_exc()
            r["seconds"] = time.time() - t0
            print(f"{r['status']} {spec.name}: " + summarize(r), flush=True)

    failed = failed or any(r["status"] != "PASS" for r in results)
    copy_bw = None
    if not opts.no_bench and not lost and any("bench" in r for r in results):
        try:
            copy_bw = copy_bandwidth(4 << 28, opts)
        except RuntimeError as e:
            print(f"copy baseline failed: {e}")
    head_lines, head = headline(results, copy_bw)

    print()
    print(f"## tile2cu samples on {DEVICE['name']} (backend {opts.backend}, arch {opts.arch}, "
          f"commit {opts.commit}, seed {seed})")
    print()
    for line in head_lines:
        print(line)
    if head_lines:
        print()
    print(render_table(results, runner.label))

    report = {
        "device": DEVICE["name"], "sms": DEVICE["sms"], "l2_bytes": DEVICE["l2"],
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": opts.commit, "arch": opts.arch, "backend": opts.backend, "seed": seed,
        "torch": torch.__version__, "torch_cuda": torch.version.cuda,
        "nvcc": runner.nvcc_version(), "quick": opts.quick,
        "tolerances": TOLERANCES, "targets": TARGETS, "sidecar_errors": errors,
        "build": getattr(runner, "build_log", {}),
        "headline": head, "ok": not failed,
        "results": [{k: v for k, v in r.items() if not k.startswith("_")} for r in results],
    }
    json_path = opts.json or (Path(os.environ["OUT"]) / "gpu_results.json"
                              if os.environ.get("OUT") else None)
    if json_path:
        Path(json_path).parent.mkdir(parents=True, exist_ok=True)
        Path(json_path).write_text(json.dumps(report, indent=1, default=str) + "\n")
        print(f"\nresults written to {json_path}")
    n_pass = sum(r["status"] == "PASS" for r in results)
    print(f"\n{n_pass} passed, {len(results) - n_pass + len(errors)} failed")
    return 1 if failed else 0


def summarize(r):
    if r["error"] and not r["cases"]:
        return r["error"]
    bad = [c for c in r["cases"] if not c["ok"]]
    s = f"{len(r['cases'])} cases"
    if r.get("bench") and "ms" in r["bench"]:
        b = r["bench"]
        s += f", {b['ms']:.3f} ms"
        if "torch_ms" in b:
            s += f" vs torch {b['torch_ms']:.3f} ms (x{b['ratio']:.2f})"
    for c in bad[:3]:
        detail = c["error"] or "; ".join(
            f"{o}: {v['n_bad']} bad, rel {v['rel_norm']:.2e}, {v['first_bad']}"
            for o, v in c["outputs"].items() if not v["ok"])
        s += f"\n    {c['case']}: {detail}"
    if r["error"]:
        s += f"\n    {r['error']}"
    return s


def render_table(results, label):
    rows = [f"| sample | spec | sizes checked | max error | result | {label} ms | torch ms | "
            "torch/" + label + " |",
            "|---|---|---|---|---|---:|---:|---:|"]
    for r in results:
        cases = r["cases"]
        sizes = ", ".join(c["case"] for c in cases) or "-"
        errs = [v["max_err"] for c in cases for v in c["outputs"].values()]
        ratios = [v.get("tol_ratio", 0.0) for c in cases for v in c["outputs"].values()]
        max_err = fmt_err(max(errs)) if errs else "-"
        if errs and max(ratios) > 0 and math.isfinite(max(ratios)):
            max_err += f" ({max(ratios):.2f} tol)"
        b = r.get("bench") or {}
        ms = f"{b['ms']:.3f}" if "ms" in b else "-"
        tms = f"{b['torch_ms']:.3f}" if "torch_ms" in b else "-"
        ratio = f"{b['ratio']:.2f}" if "ratio" in b else "-"
        rows.append(f"| {r['sample']} | {r['spec']} | {sizes} | {max_err} | {r['status']} | "
                    f"{ms} | {tms} | {ratio} |")
    return "\n".join(rows)


if __name__ == "__main__":
    sys.exit(main())
