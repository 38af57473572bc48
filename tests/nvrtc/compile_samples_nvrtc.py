#!/usr/bin/env python3
"""NVRTC compile test (issue 29): every sample's generated kernels build in process with NVRTC,
the same generated .cu that nvcc builds whole (compile_samples.py), for sm_80 and sm_90a.

    compile_samples_nvrtc.py TILE2CU [--fast-backend] [--times FILE.json] [--only NAME ...]

NVRTC sees the device code only: the generated file keeps its launchers and C entries, and the
runtime its host helpers, behind !defined(__CUDACC_RTC__). Every kernel and each copy of a
template kernel (kTilesWhole) is asked for by name expression, so all of them are instantiated
and must come out in the cubin; NVRTC's log must be empty (nvcc's build is warning-free too).
Needs no GPU. Exit 77 (skipped) where libnvrtc is missing.

--fast-backend (what ctest runs, to keep CI short): NVRTC's --Ofast-compile=max, the same front
end (where NVRTC and nvcc differ) with a fast NVVM and ptxas. Without it, the options of a real
build; the whole set then takes several times longer (docs/python-launcher.md has the times).
"""
import argparse
import concurrent.futures
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
from tile2cu import _nvrtc  # noqa: E402

ARCHS = ("sm_80", "sm_90a")

# A kernel as the emitter writes it, inside the namespace named after its specialization.
_SPEC = re.compile(r"^namespace (\w+) \{$", re.M)
_KERNEL = re.compile(r"^(template <bool kTilesWhole>\n)?__global__ void __launch_bounds__\([^()]*\) (\w+)\(", re.M)


def name_expressions(cu_text: str) -> list[str]:
    """The kernels of a generated file, as NVRTC name expressions: both copies of a template."""
    exprs = []
    specs = [(m.start(), m.group(1)) for m in _SPEC.finditer(cu_text)]
    for m in _KERNEL.finditer(cu_text):
        spec = [name for at, name in specs if at < m.start()][-1]
        if m.group(1):
            exprs += [f"&{spec}::{m.group(2)}<false>", f"&{spec}::{m.group(2)}<true>"]
        else:
            exprs.append(f"&{spec}::{m.group(2)}")
    return exprs


def options(arch: str, gen_dir: pathlib.Path, cuda_home: pathlib.Path) -> list[str]:
    # -default-device: NVRTC takes a generic lambda in a kernel ([&](auto whole) {...}) and an
    # unannotated constexpr member function for host code, where nvcc makes them device code.
    return ["-std=c++17", "-default-device", f"-I{gen_dir}", f"-I{ROOT / 'runtime'}",
            *[f"-I{d}" for d in _nvrtc.include_dirs(cuda_home)]]


# ptxas's notes that only --Ofast-compile's builds give (calls it could not inline: a stack of
# unknown size, wgmma serialized around them); the default build gives none.
_FAST_BACKEND_NOTE = re.compile(r"^ptxas (warning : Stack size for entry function '\w+' cannot be statically "
                                r"determined|info    : \(C7520\) Potential Performance Loss: wgmma\.mma_async )")


def compile_one(job):
    stem, arch, text, exprs, gen, cuda_home, extra = job
    try:
        out = _nvrtc.compile_source(text, stem + ".cu", arch, options(arch, gen, cuda_home) + extra, exprs,
                                    cuda_home)
    except _nvrtc.NvrtcError as e:
        return stem, arch, None, str(e)[-4000:]
    log = [line for line in out.log.splitlines()
           if line.strip() and not ("--Ofast-compile=max" in extra and _FAST_BACKEND_NOTE.match(line))]
    if log:
        return stem, arch, out.seconds, "warnings:\n" + "\n".join(log)[-4000:]
    if "-fdevice-syntax-only" not in extra:
        missing = [e for e, name in out.lowered.items() if name.encode() not in out.image]
        if missing:
            return stem, arch, out.seconds, f"kernels missing from the cubin: {missing}"
    return stem, arch, out.seconds, None


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("tool")
    ap.add_argument("--times", help="write each compile's seconds to this JSON file")
    ap.add_argument("--only", nargs="*", help="sample names (default: every sample with a .sigs)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--fast-backend", action="store_true", help="--Ofast-compile=max (see above)")
    ap.add_argument("--option", action="append", default=[], help="one more NVRTC option (repeatable)")
    args = ap.parse_args()
    if args.fast_backend:
        args.option.append("--Ofast-compile=max")
    cuda_home = pathlib.Path(os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    try:
        major, minor = _nvrtc.version(cuda_home)
    except _nvrtc.NvrtcUnavailable as e:
        print(f"{e}: NVRTC compile tests skipped")
        return 77
    samples = sorted(p for p in (ROOT / "samples").glob("*.py") if p.with_suffix(".sigs").exists())
    if args.only:
        samples = [s for s in samples if s.stem in args.only]
    failed, jobs = [], []
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        gen = pathlib.Path(tmp)
        for s in samples:
            cu = gen / (s.stem + ".cu")
            r = subprocess.run([args.tool, str(s), "-o", str(cu)], capture_output=True, text=True)
            if r.returncode != 0:
                failed.append(f"{s.name}: transpile failed\n{r.stderr}")
                continue
            text = cu.read_text()
            exprs = name_expressions(text)
            if not exprs:
                failed.append(f"{s.name}: no kernel found in the generated file")
                continue
            jobs += [(s.stem, arch, text, exprs) for arch in ARCHS]

        # One process per compile at a time: NVRTC's compiles on threads of one process did not
        # overlap here (two took longer together than one after the other).
        with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            results = list(pool.map(compile_one, [(*job, gen, cuda_home, args.option) for job in jobs]))
    times = {}
    for stem, arch, seconds, error in results:
        times.setdefault(stem, {})[arch] = seconds
        if error:
            failed.append(f"{stem} [{arch}]: {error}")
    for f in failed:
        print("FAIL", f)
    passed = len(results) - sum(1 for r in results if r[3])
    print(f"NVRTC {major}.{minor}: {passed} compiles passed, {len(failed)} failed "
          f"({len(samples)} samples x {len(ARCHS)} targets, {time.perf_counter() - start:.1f} s wall)")
    if args.times:
        pathlib.Path(args.times).write_text(json.dumps(times, indent=1, sort_keys=True) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
