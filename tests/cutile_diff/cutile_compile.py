"""Real cuTile's side of cutile_diff: its verdict on one kernel file, signature and architecture.

Everything here decides cuTile's verdict (with python/tile2cu_sig and the pins), so
verdict_cache.py hashes this file into every key; the rest of run_diff.py (tile2cu's side, the
comparison, the report) can change without making the recorded verdicts stale. Runs inside the
cuTile virtual environment.
"""
from __future__ import annotations

import ast
import contextlib
import importlib.util
import io
import re
import signal
import sys
from pathlib import Path

CASE_TIMEOUT_S = 120
# cuTile's public error classes, most specific first (TileError is their base).
CUTILE_CLASSES = ("TileSyntaxError", "TileTypeError", "TileValueError",
                  "TileUnsupportedFeatureError", "TileStaticAssertionError",
                  "TileRecursionError", "TileStaticEvalError", "TileCompilerExecutionError",
                  "TileCompilerTimeoutError", "TileInternalError", "TileError")
# Python rejects these before cuTile sees the kernel (IndentationError and TabError are
# SyntaxErrors); tile2cu's reading of the same source is a TileSyntaxError, so the two count as
# the same class.
PYTHON_SYNTAX = (SyntaxError,)


class _Timeout(Exception):
    pass


@contextlib.contextmanager
def _time_limit(seconds):
    def on_alarm(*_):
        raise _Timeout()
    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


_module_counter = [0]


def load_module(path: Path):
    """Imports a kernel file under a fresh name (its folder on sys.path for helper imports)."""
    _module_counter[0] += 1
    stem = re.sub(r"\W", "_", path.stem)
    name = f"_cutile_diff_{_module_counter[0]}_{stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    try:
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    finally:
        sys.path.remove(str(path.parent))
    return mod


def cutile_class(exc) -> str:
    import cuda.tile as ct
    for name in CUTILE_CLASSES:
        if isinstance(exc, getattr(ct, name)):
            return name
    return type(exc).__name__


def first_line(text: str, limit: int = 160) -> str:
    line = next((ln.strip() for ln in str(text).splitlines() if ln.strip()), "")
    return line if len(line) <= limit else line[:limit - 3] + "..."


def kernel_names(path: Path) -> list:
    """Names of the @ct.kernel functions of a file, in source order (by syntax, not import)."""
    try:
        tree = ast.parse(path.read_bytes())
    except (SyntaxError, ValueError):
        return []
    out = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            for d in node.decorator_list:
                target = d.func if isinstance(d, ast.Call) else d
                if isinstance(target, ast.Attribute) and target.attr == "kernel":
                    out.append(node.name)
    return out


def cutile_compile(path: Path, sig_text: str, kernel_name: str | None, arch: str,
                   module=None):
    """Real cuTile's verdict on one kernel + signature. -> (accepted, class, message, info)"""
    from cuda.tile.compilation import export_kernel
    from tile2cu_sig import parse_signature
    from tile2cu_sig.cutile import kernel_param_names, to_kernel_signature
    info = {}
    try:
        with _time_limit(CASE_TIMEOUT_S):
            try:
                mod = module or load_module(path)
            except PYTHON_SYNTAX as e:
                return False, "TileSyntaxError", f"(Python {type(e).__name__} at import) " \
                    f"{first_line(e)}", {"python_syntax": True}
            except Exception as e:  # noqa: BLE001 - module code failed before cuTile ran
                return False, f"Python {cutile_class(e)} at import", first_line(e), info
            if kernel_name is None:
                names = kernel_names(path)
                if len(names) != 1:
                    return False, "NoKernel", f"{len(names)} @ct.kernel functions and no " \
                        "'# kernel:' header", info
                kernel_name = names[0]
            kernel = getattr(mod, kernel_name, None)
            if kernel is None:
                return False, "NoKernel", f"no kernel {kernel_name!r} after import", info
            try:
                sig = parse_signature(sig_text)
                ks = to_kernel_signature(sig, kernel_param_names(kernel),
                                         symbol_base=kernel_name)
            except (ValueError, TypeError) as e:
                return False, "SignatureError", str(e), {"signature_only": True}
            info["symbol"] = ks.symbol
            buf = io.BytesIO()
            export_kernel(kernel, [ks], buf, gpu_code=arch, output_format="cubin")
            info["cubin_bytes"] = len(buf.getvalue())
            return True, "", "", info
    except _Timeout:
        return False, "Timeout", f"cuTile ran over {CASE_TIMEOUT_S} s", info
    except Exception as e:  # noqa: BLE001 - the class of whatever cuTile raised is the result
        msg = first_line(str(e))
        loc = getattr(e, "loc", None)
        if loc is not None and getattr(loc, "line", 0):
            msg = f"{loc.line}:{getattr(loc, 'col', 0)}: {msg}"
        return False, cutile_class(e), msg, info
