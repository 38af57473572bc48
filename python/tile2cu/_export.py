"""`cuda.tile.compilation.export_kernel`: ahead-of-time compilation of a kernel for explicit
signatures, through the launcher's path (the kernel's source as _kernel finds or synthesizes
it, the transpiler, nvcc), without a GPU.

Each KernelSignature becomes one tile2cu specialization, named by its symbol (cuTile's mangled
name when it has none), in one generated .cu file. What a constraint says that tile2cu's
signature can state is kept: dtype, rank, static extents (shape_constant), static strides
(stride_constant; a lone unit last stride is `contiguous`), a base divisible by 16 (`align16`). Divisibility of strides and extents and
alias groups are assumptions tile2cu does not use; dropping them is always safe. What tile2cu
cannot compile (64-bit indices, negative strides, dtypes it lacks) raises
TileUnsupportedFeatureError naming it.

Formats: "cubin" and "ptx" (the device code, for gpu_code), "cu" (the generated CUDA C++ with
its header inlined: host launchers and C entries `tile2cu_<symbol>` included; build it with
`nvcc -I <runtime>`). The kernels keep tile2cu's ABI, not cuTile's calling convention: a
cubin holds them as `<symbol>::<kernel>` C++ functions that the .cu's launcher calls (the symbol
spelled as docs/naming.md spells C++ names, which keeps ordinary identifiers as they are).
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from . import _build, _constraints as cc, _errors, _kernel
from ._dtypes import SIGNATURE_NAME, int32
from ._mangling import mangle_kernel_name

FORMATS = ("cubin", "ptx", "cu")
_GPU_CODE = re.compile(r"sm_(\d+)[af]?")


def export_kernel(kernel, signatures, output_file, *, gpu_code=None, output_format,
                  bytecode_version=None):
    if type(kernel) is not _kernel.kernel:
        raise TypeError(f"export_kernel expects a @ct.kernel, got {type(kernel).__name__}")
    _check_options(output_format, gpu_code, bytecode_version)
    signatures = list(signatures)
    if not signatures:
        raise ValueError("export_kernel needs at least one signature")
    for s in signatures:
        if not isinstance(s, cc.KernelSignature):
            raise TypeError(f"Expected a KernelSignature, got {type(s).__name__}")
    if kernel._variadic:
        raise _errors.TileSyntaxError(
            f"kernel '{kernel._pyfunc.__name__}' has a variadic parameter '{kernel._variadic}': "
            "kernel parameters cannot be *args or **kwargs")
    name = kernel._name_in_module()
    specs = [(_symbol(s, kernel._pyfunc.__name__), signature_text(kernel, s)) for s in signatures]
    seen = set()
    for symbol, _ in specs:
        if symbol in seen:
            raise ValueError(f"two signatures export the symbol '{symbol}'")
        seen.add(symbol)
    data = _compile(kernel, name, specs, output_format, gpu_code)
    _write(output_file, data)


def _check_options(output_format, gpu_code, bytecode_version):
    if output_format == "tileir_bytecode":
        raise _errors.TileUnsupportedFeatureError(
            "export_kernel(output_format='tileir_bytecode'): tile2cu writes no Tile IR bytecode "
            f"(it compiles through CUDA C++); the formats it exports are {', '.join(FORMATS)}")
    if output_format not in FORMATS:
        raise ValueError(f"Unknown output format '{output_format}' (tile2cu exports "
                         f"{', '.join(FORMATS)})")
    if bytecode_version is not None:
        raise _errors.TileUnsupportedFeatureError(
            f"export_kernel(bytecode_version={bytecode_version!r}): tile2cu has no Tile IR "
            "bytecode version to choose (it compiles through CUDA C++ and nvcc); leave it None")
    if output_format != "cu":
        if gpu_code is None:
            raise ValueError(f"gpu_code is required when output_format is '{output_format}'.")
        if not isinstance(gpu_code, str) or not _GPU_CODE.fullmatch(gpu_code):
            raise ValueError(f"gpu_code must name a GPU as sm_<major><minor> (e.g. 'sm_90'), "
                             f"got {gpu_code!r}")


def _symbol(sig, function_name):
    if sig.symbol is None:
        return mangle_kernel_name(function_name, sig)   # as cuTile names it
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", sig.symbol):
        raise ValueError(f"symbol '{sig.symbol}' is not a C identifier")
    return sig.symbol


# ---- constraints -> tile2cu's signature text ----------------------------------------------------

def signature_text(kernel, sig) -> str:
    """The signature in tile2cu's text ("x=float32[?] align16 contiguous, TILE=128"), as the
    launcher writes it for a launch."""
    params = kernel._params
    if len(sig.parameters) != len(params):
        raise TypeError(f"The signature has {len(sig.parameters)} parameters, kernel "
                        f"'{kernel._pyfunc.__name__}' has {len(params)}")
    out = []
    for i, (info, c) in enumerate(zip(params, sig.parameters)):
        where = _kernel._where(i, info).replace("kernel argument", "signature parameter")
        if info.constant and not _is_constant(c):
            raise TypeError(f"{where}: the parameter is a ct.Constant, so its constraint must be "
                            f"a ConstantConstraint (or a tuple of them), got {type(c).__name__}")
        out.append(f"{info.name}={_text(c, where)}")
    return ", ".join(out)


def _is_constant(c):
    if isinstance(c, cc.TupleConstraint):
        return all(_is_constant(i) for i in c.items)
    return isinstance(c, cc.ConstantConstraint)


def _text(c, where) -> str:
    if isinstance(c, cc.ConstantConstraint):
        try:
            return _kernel._const_literal(_kernel._const_key(c.value, where))
        except _kernel.ArgError as e:
            raise e.kind(str(e)) from None
    if isinstance(c, cc.ScalarConstraint):
        return _dtype_name(c.dtype, where, "scalars")
    if isinstance(c, cc.TupleConstraint):
        if not c.items:
            raise _errors.TileUnsupportedFeatureError(f"{where}: an empty tuple holds nothing "
                                                      "to pass")
        items = [_text(i, where) for i in c.items]
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    if isinstance(c, cc.ArrayConstraint):
        return _array_text(c, where)
    if isinstance(c, cc.ListConstraint):
        element = c.element
        if any(d is not None for d in element.shape_constant) or _listed_strides(element):
            raise _errors.TileUnsupportedFeatureError(
                f"{where}: static extents or strides of a list's arrays are not supported by "
                "tile2cu (its lists state alignment and a unit last stride only)")
        return f"list[{_array_text(element, where)}]"
    raise TypeError(f"{where}: unexpected constraint {c!r}")


def _dtype_name(dtype, where, what):
    name = SIGNATURE_NAME.get(dtype)
    if name is None:
        raise _errors.TileUnsupportedFeatureError(f"{where}: {what} of {dtype.name} are not "
                                                  "supported by tile2cu yet")
    return name


def _listed_strides(a):
    """The strides to state one by one, or None when at most the last one (1) is known."""
    known = a.stride_constant
    if all(s is None for s in known) or (known[-1] == 1 and all(s is None for s in known[:-1])):
        return None
    return known


def _array_text(a, where) -> str:
    _dtype_name(a.dtype, where, "arrays")
    if a.index_dtype is not int32:
        raise _errors.TileUnsupportedFeatureError(
            f"{where}: index_dtype {a.index_dtype.name}: 64-bit array indexing is not supported "
            "by tile2cu yet (it indexes with int32)")
    for axis, (known, bound) in enumerate(zip(a.stride_constant, a.stride_lower_bound_incl)):
        if (known is not None and known < 0) or (known is None and (bound is None or bound < 0)):
            raise _errors.TileUnsupportedFeatureError(
                f"{where}: stride_lower_bound_incl={a.stride_lower_bound_incl}: tile2cu kernels "
                f"take non-negative strides only; state a lower bound of 0 (axis {axis})")
    if 0 in a.shape_constant:
        raise _errors.TileUnsupportedFeatureError(f"{where}: a static extent of 0 is not "
                                                  "supported by tile2cu")
    listed = _listed_strides(a)
    contiguous = listed is None and a.ndim > 0 and a.stride_constant[-1] == 1
    static_dims = a.shape_constant if any(d is not None for d in a.shape_constant) else ()
    static = (static_dims, listed or ()) if static_dims or listed else ()
    shape = tuple(0 if d is None else d for d in a.shape_constant)
    return _kernel._array_constraint(a.dtype, shape, (a.base_addr_divisible_by % 16 == 0,
                                                      contiguous, static))


# ---- building and writing ---------------------------------------------------------------------

def _compile(kernel, name, specs, output_format, gpu_code) -> bytes:
    source, synthesized = kernel._source()
    tool = _build.find_tool()
    with tempfile.TemporaryDirectory(prefix="tile2cu-export-") as tmp:
        gen = Path(tmp) / "gen"
        _build.transpile_specs(tool, source, name, specs, gen, synthesized)
        cu = gen / (source.stem + ".cu")
        if output_format == "cu":
            return _with_header_inlined(cu).encode()
        out = Path(tmp) / f"out.{output_format}"
        _build.compile_device_code(_build.find_nvcc(), cu, output_format, gpu_code, out)
        return out.read_bytes()


def _with_header_inlined(cu: Path) -> str:
    """The .cu as one file: its own header (declarations of the C entries) pasted in where it
    is included, so only the runtime headers are needed beside it."""
    header = cu.with_suffix(".cuh")
    include = f'#include "{header.name}"\n'
    text = cu.read_text()
    if include in text:
        # `#pragma once` would draw a warning in a main file
        inlined = header.read_text().replace("#pragma once\n", "", 1)
        text = text.replace(include, inlined, 1)
    return text


def _write(output_file, data: bytes):
    if isinstance(output_file, (str, bytes, os.PathLike)):
        with open(output_file, "wb") as f:
            f.write(data)
    else:
        output_file.write(data)
