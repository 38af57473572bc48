"""`python -m tile2cu doctor`: what the launcher finds on this machine (the tile2cu binary, the
runtime headers, nvcc and NVRTC with their versions, the GPUs and their compute capabilities,
the kernel cache, the optional array libraries) and, for each thing missing, how to fix it.
Exit status 0 when a cuTile program can run (or, with TILE2CU_ARCH set, be compiled), else 1."""

from __future__ import annotations

import ctypes
import importlib.metadata
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from . import _build, _device, _nvrtc_build
from .version import __version__


class Report:
    """Lines of `status  what  detail`, with a `fix:` line under each problem."""

    def __init__(self):
        self.problems = 0

    def line(self, status: str, what: str, detail: str, fix: str | None = None) -> None:
        print(f"  {status:<8} {what:<9} {detail}")
        if fix:
            print(f"  {'':<8} {'':<9} fix: {fix}")
        if status == "missing":
            self.problems += 1


def _version_line(cmd: list[str], pick: str) -> str:
    """The first line of `cmd`'s output that contains `pick` (the whole output if none does)."""
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"did not answer --version: {e}"
    lines = r.stdout.strip().splitlines()
    return next((ln for ln in lines if pick in ln), " ".join(lines)).strip()


def _check_binary(report: Report) -> None:
    try:
        tool = _build.find_tool()
    except FileNotFoundError as e:
        report.line("missing", "binary", str(e),
                    "pip install <tile2cu checkout> (the wheel ships it), or TILE2CU_BIN=/path/to/tile2cu")
        return
    report.line("ok", "binary", f"{tool} ({_version_line([str(tool), '--version'], 'tile2cu')})")


def _check_runtime(report: Report) -> None:
    try:
        report.line("ok", "runtime", f"{_build.find_runtime()} (nvcc -I this folder)")
    except FileNotFoundError as e:
        report.line("missing", "runtime", str(e), "reinstall the package: pip install <tile2cu checkout>")


def _check_nvcc(report: Report) -> Path | None:
    try:
        nvcc = _build.find_nvcc()
    except FileNotFoundError as e:
        report.line("missing", "nvcc", str(e),
                    "install the CUDA toolkit (12.x or 13.x), then set CUDA_HOME or put its bin/ on PATH")
        return None
    if not os.access(nvcc, os.X_OK):
        report.line("missing", "nvcc", f"{nvcc} is not an executable file",
                    "point TILE2CU_NVCC at an nvcc, or unset it")
        return None
    report.line("ok", "nvcc", f"{nvcc} ({_version_line([str(nvcc), '--version'], 'release')})")
    return nvcc


def _nvrtc_version(nvcc: Path | None) -> tuple[str, str] | None:
    """NVRTC's library and version: the loader's own search first, then the toolkit beside nvcc."""
    names = ["libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"]
    if nvcc is not None:
        home = nvcc.resolve().parent.parent
        names += [str(home / lib / "libnvrtc.so") for lib in ("lib64", "targets/x86_64-linux/lib")]
    for name in names:
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            continue
        major, minor = ctypes.c_int(0), ctypes.c_int(0)
        if lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor)) == 0:
            return name, f"{major.value}.{minor.value}"
    return None


def _check_nvrtc(report: Report, nvcc: Path | None) -> None:
    found = _nvrtc_version(nvcc)
    try:
        compiler, why = _nvrtc_build.choice()
    except ValueError as e:   # a TILE2CU_COMPILER it does not know
        report.line("missing", "compiler", str(e), "set TILE2CU_COMPILER to nvrtc or nvcc, or unset it")
        return
    if compiler == "nvrtc":
        use = "builds compile device code with NVRTC, nvcc where a kernel needs its host launcher"
    elif why is None:
        use = "not used: TILE2CU_COMPILER=nvcc"
    else:
        use = f"not used ({why}): builds go through nvcc"
    if found:
        report.line("info", "NVRTC", f"{found[0]} (version {found[1]}; {use})")
    else:
        report.line("info", "NVRTC", f"not found ({use})")


def _check_gpus(report: Report) -> None:
    forced = os.environ.get("TILE2CU_ARCH")
    try:
        driver, gpus = _device.describe_gpus()
    except RuntimeError as e:
        if forced:
            report.line("info", "GPUs", f"none usable ({e}); TILE2CU_ARCH={forced}: kernels are "
                        "compiled for it, not launched")
        else:
            report.line("missing", "GPUs", str(e),
                        "install the NVIDIA driver on a machine with a GPU (compute capability 8.0+); "
                        "to compile only, set TILE2CU_ARCH=sm_90a (or another architecture)")
        return
    report.line("ok", "GPUs", f"CUDA driver {driver}, {len(gpus)} device(s)")
    for gpu in gpus:
        report.line("", "", gpu)
    if forced:
        report.line("info", "", f"TILE2CU_ARCH={forced} overrides the architectures above")


def _folder_size(folder: Path) -> tuple[int, int]:
    entries = sum(1 for p in folder.iterdir() if p.is_dir())
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    return entries, size


def _check_cache(report: Report) -> None:
    root = _build.cache_root()
    existing = root
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not os.access(existing, os.W_OK):
        report.line("missing", "cache", f"{root} is not writable",
                    "set TILE2CU_CACHE_DIR to a writable folder")
    elif root.is_dir():
        entries, size = _folder_size(root)
        report.line("ok", "cache", f"{root} ({entries} entries, {size / 2**20:.1f} MiB; "
                    "python -m tile2cu cache --clear empties it)")
    else:
        report.line("ok", "cache", f"{root} (empty; made at the first build)")


def _check_array_libraries(report: Report) -> None:
    for module, distributions in (("torch", ["torch"]),
                                  ("cupy", ["cupy-cuda13x", "cupy-cuda12x", "cupy"])):
        if importlib.util.find_spec(module) is None:
            report.line("info", module, f"not installed (optional: pip install 'tile2cu[{module}]')")
            continue
        version = "version unknown"
        for dist in distributions:
            try:
                version = importlib.metadata.version(dist)
                break
            except importlib.metadata.PackageNotFoundError:
                pass
        report.line("ok", module, version)


def main() -> int:
    print(f"tile2cu {__version__} (Python package at {Path(__file__).resolve().parent}, "
          f"Python {sys.version.split()[0]})")
    report = Report()
    _check_binary(report)
    _check_runtime(report)
    nvcc = _check_nvcc(report)
    _check_nvrtc(report, nvcc)
    _check_gpus(report)
    _check_cache(report)
    _check_array_libraries(report)
    if report.problems:
        print(f"{report.problems} thing(s) missing: see the fix lines above")
        return 1
    print("ready" + (" to compile (TILE2CU_ARCH is set)" if os.environ.get("TILE2CU_ARCH") else
                     " to run cuTile programs: python -m tile2cu run script.py"))
    return 0
