#!/usr/bin/env python3
"""First launch through NVRTC against nvcc (issue 29, step 2): the Python launcher's two ways of
building a specialization, side by side.

With a GPU (torch and a CUDA device), four parts:

1. Correctness: every sample (`samples/*.py` with its `.sigs`) through
   `tests/gpu/run_samples.py --backend nvrtc --no-bench`: each .cu compiled by NVRTC, every
   specialization launched from its launch plan through the driver and checked against torch
   (those whose plan needs the host launcher run through nvcc, as the launcher falls back; the
   run prints how many took which path).
2. Programs: every `samples/host/*.py` run as a user runs it (`python -m tile2cu run`), for each
   compiler (`TILE2CU_COMPILER=nvcc`, `=nvrtc`) with an empty kernel cache (cold), then again with
   the cache that run filled (warm). The programs check their own results. For each build, the
   cache entry's meta.json gives the seconds of transpiling and of compiling.
3. First launch per specialization: `--compile-only`'s table (below) on this machine.
4. Warm launch host overhead: `tests/gpu/bench_launch_overhead.py --gpu` under each compiler.
5. Several builds in one process (NVRTC): each sample's specializations built one after the other
   in one fresh process and cache, with NVRTC's in-memory precompiled header of the runtime
   headers (the launcher's default from the second build on) and without it
   (`TILE2CU_NVRTC_PCH=0`).

Without a GPU, or with `--compile-only`: parts 3 and 5 alone, for the architecture named by `--arch`
(default sm_90a): each specialization of the chosen samples built by the launcher's build
function (_build.build) in a fresh process with an empty cache, once per compiler, and the
seconds each took (transpile + NVRTC, or transpile + nvcc).

    PYTHONPATH=python python3 tests/gpu/first_launch.py [--compile-only] [--arch sm_90a]
        [--only vector_add,softmax] [--json FILE] [--in-process-only] [--nvrtc-only]

Exits non-zero when a check or a program failed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PY = str(REPO / "python")
# The samples whose specializations part 3 builds: elementwise, row, GEMM and attention kernels.
DEFAULT_SAMPLES = ["vector_add", "fused_exp_mul_add", "gelu_helper", "softmax", "rms_norm",
                   "layer_norm", "matmul", "attention"]

BUILD_ONE = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from tile2cu import _build
source, kernel, spec, signature, arch = sys.argv[2:7]
start = time.perf_counter()
built = _build.build(Path(source), kernel, spec, signature, (arch,), [])
seconds = time.perf_counter() - start
meta = json.loads((built.folder / "meta.json").read_text())
print("RESULT " + json.dumps({"seconds": seconds, "compiler": built.compiler,
                              "fallback": built.fallback_reason, "meta": meta}))
"""


def has_gpu() -> bool:
    try:
        import torch
        return torch.cuda.is_available()
    except ImportError:
        return False


def sidecar_specs(sample: str) -> list[tuple[str, str, str]]:
    """(spec name, kernel, signature) of each line of samples/<sample>.sigs."""
    out = []
    for line in (REPO / "samples" / f"{sample}.sigs").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line or " = " not in line:
            continue
        name, call = line.split(" = ", 1)
        kernel, rest = call.split("(", 1)
        out.append((name.strip(), kernel.strip(), rest.rsplit(")", 1)[0]))
    return out


def build_seconds(sample, spec, kernel, signature, arch, compiler, env):
    """One cold build in a fresh process and cache: the build's seconds and what built it."""
    with tempfile.TemporaryDirectory(prefix="tile2cu-first-") as cache:
        e = dict(env, TILE2CU_CACHE_DIR=cache, TILE2CU_COMPILER=compiler)
        r = subprocess.run([sys.executable, "-c", BUILD_ONE, PY, str(REPO / "samples" / f"{sample}.py"),
                            kernel, spec, signature, arch], env=e, capture_output=True, text=True)
        for line in r.stdout.splitlines():
            if line.startswith("RESULT "):
                return json.loads(line[7:])
        return {"error": (r.stderr.strip().splitlines() or ["?"])[-1][:160]}


def compile_table(samples, arch, env, nvcc_too=True) -> tuple[list[dict], bool]:
    print(f"\n## First build per specialization, cold (fresh process and cache), {arch}\n")
    print("| sample | specialization | NVRTC path s | nvcc s | nvcc / NVRTC | NVRTC path |")
    print("|---|---|---:|---:|---:|---|")
    rows, ok = [], True
    for sample in samples:
        for spec, kernel, signature in sidecar_specs(sample):
            fast = build_seconds(sample, spec, kernel, signature, arch, "nvrtc", env)
            slow = (build_seconds(sample, spec, kernel, signature, arch, "nvcc", env) if nvcc_too
                    else {"seconds": float("nan"), "compiler": "nvcc"})
            row = {"sample": sample, "spec": spec, "nvrtc": fast, "nvcc": slow}
            rows.append(row)
            if "error" in fast or "error" in slow:
                ok = False
                print(f"| {sample} | {spec} | {fast.get('error', '')} | {slow.get('error', '')} | | |")
                continue
            path = "NVRTC" if fast["compiler"] == "nvrtc" else f"nvcc: {fast['fallback']}"
            print(f"| {sample} | {spec} | {fast['seconds']:.2f} | {slow['seconds']:.2f} | "
                  f"{slow['seconds'] / fast['seconds']:.1f} | {path} |", flush=True)
    return rows, ok


BUILD_ALL = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from tile2cu import _build
source, arch = sys.argv[2:4]
for spec, kernel, signature in json.loads(sys.argv[4]):
    start = time.perf_counter()
    built = _build.build(Path(source), kernel, spec, signature, (arch,), [])
    meta = json.loads((built.folder / "meta.json").read_text())
    print("RESULT " + json.dumps({"spec": spec, "seconds": time.perf_counter() - start,
                                  "compiler": built.compiler, "pch": meta.get("pch")}), flush=True)
"""


def in_process_table(samples, arch, env) -> tuple[list[dict], bool]:
    """Part 5: each sample's specializations built in one process, with and without the PCH."""
    print(f"\n## Specializations built one after another in one process, cold cache, {arch}\n")
    print("| sample | specialization | with PCH s | without PCH s | PCH asked |")
    print("|---|---|---:|---:|---|")
    rows, ok = [], True
    for sample in samples:
        specs = json.dumps(sidecar_specs(sample))
        runs = []
        for pch in ("1", "0"):
            with tempfile.TemporaryDirectory(prefix="tile2cu-seq-") as cache:
                e = dict(env, TILE2CU_CACHE_DIR=cache, TILE2CU_COMPILER="nvrtc", TILE2CU_NVRTC_PCH=pch)
                r = subprocess.run([sys.executable, "-c", BUILD_ALL, PY,
                                    str(REPO / "samples" / f"{sample}.py"), arch, specs],
                                   env=e, capture_output=True, text=True)
                runs.append([json.loads(l[7:]) for l in r.stdout.splitlines() if l.startswith("RESULT ")])
                if r.returncode != 0:
                    ok = False
                    print(f"| {sample} | error | {(r.stderr.strip().splitlines() or ['?'])[-1][:160]} | | |")
        for with_pch, without in zip(*runs):
            rows.append({"sample": sample, "with_pch": with_pch, "without_pch": without})
            asked = with_pch["pch"] if with_pch["compiler"] == "nvrtc" else "nvcc"
            print(f"| {sample} | {with_pch['spec']} | {with_pch['seconds']:.2f} | "
                  f"{without['seconds']:.2f} | {asked} |", flush=True)
    return rows, ok


def run_program(path: Path, compiler: str, cache: Path, env) -> tuple[float, bool, str]:
    e = dict(env, TILE2CU_CACHE_DIR=str(cache), TILE2CU_COMPILER=compiler)
    start = time.perf_counter()
    try:
        p = subprocess.run([sys.executable, "-m", "tile2cu", "run", str(path)], cwd=path.parent,
                           env=e, capture_output=True, text=True, timeout=900)
        ok, tail = p.returncode == 0, (p.stdout + p.stderr).strip().splitlines()[-1:] or [""]
    except subprocess.TimeoutExpired:
        ok, tail = False, ["timed out after 900 s"]
    return time.perf_counter() - start, ok, tail[0][:120]


def program_table(env) -> tuple[list[dict], bool]:
    print("\n## samples/host programs, cold and warm cache, per compiler\n")
    print("| program | compiler | cold s | warm s | builds: compile s each (transpile s) | ok |")
    print("|---|---|---:|---:|---|---|")
    rows, all_ok = [], True
    for program in sorted((REPO / "samples" / "host").glob("*.py")):
        for compiler in ("nvcc", "nvrtc"):
            with tempfile.TemporaryDirectory(prefix="tile2cu-prog-") as cache:
                cold, ok_cold, tail_cold = run_program(program, compiler, Path(cache), env)
                warm, ok_warm, tail_warm = run_program(program, compiler, Path(cache), env)
                metas = [json.loads(p.read_text()) for p in sorted(Path(cache).rglob("meta.json"))]
            builds = ", ".join(
                f"{m.get('nvrtc_seconds', m.get('nvcc_seconds'))}"
                f"{'' if m.get('compiler') == compiler else ' [' + str(m.get('compiler')) + ']'}"
                f" ({m.get('transpile_seconds')})" for m in metas if not m.get("fallback"))
            ok = ok_cold and ok_warm
            all_ok &= ok
            rows.append({"program": program.name, "compiler": compiler, "cold_s": cold,
                         "warm_s": warm, "ok": ok, "builds": metas,
                         "tail": tail_cold if not ok_cold else tail_warm})
            print(f"| {program.stem} | {compiler} | {cold:.1f} | {warm:.1f} | {builds} | "
                  f"{'ok' if ok else 'FAIL: ' + (tail_cold if not ok_cold else tail_warm)} |", flush=True)
    return rows, all_ok


def correctness(env, arch) -> bool:
    print("\n## Every sample through NVRTC and the launch plan, against torch\n", flush=True)
    with tempfile.TemporaryDirectory(prefix="tile2cu-gen-") as gen:
        tool = env.get("TILE2CU_BIN") or str(REPO / "build" / "tile2cu")
        for sigs in sorted((REPO / "samples").glob("*.sigs")):
            subprocess.run([tool, str(sigs.with_suffix(".py")), "-o", f"{gen}/{sigs.stem}.cu"], check=True)
        r = subprocess.run([sys.executable, str(REPO / "tests" / "gpu" / "run_samples.py"),
                            "--backend", "nvrtc", "--gen", gen, "--arch", arch, "--tool", tool,
                            "--no-bench"], env=env)
        return r.returncode == 0


def overhead(env) -> None:
    print("\n## Warm launch host overhead (bench_launch_overhead.py --gpu)\n", flush=True)
    for compiler in ("nvcc", "nvrtc"):
        print(f"### TILE2CU_COMPILER={compiler}", flush=True)
        subprocess.run([sys.executable, str(REPO / "tests" / "gpu" / "bench_launch_overhead.py"), "--gpu"],
                       env=dict(env, TILE2CU_COMPILER=compiler))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--compile-only", action="store_true", help="part 3 only; needs no GPU")
    ap.add_argument("--arch", default=None, help="target of --compile-only (default: the GPU's, else sm_90a)")
    ap.add_argument("--only", default="", help="comma-separated samples for part 3")
    ap.add_argument("--json", default=None, help="write every measurement here")
    ap.add_argument("--in-process-only", action="store_true", help="part 5 only; needs no GPU")
    ap.add_argument("--nvrtc-only", action="store_true",
                    help="part 3 without its nvcc column, and no part 5 (a short device call)")
    args = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([PY, os.environ.get("PYTHONPATH", "")]))
    if "TILE2CU_BIN" not in env and (REPO / "build" / "tile2cu").exists():
        env["TILE2CU_BIN"] = str(REPO / "build" / "tile2cu")
    gpu = has_gpu() and not args.compile_only and not args.in_process_only
    arch = args.arch
    if arch is None:
        arch = "sm_90a"
        if gpu:
            sys.path.insert(0, PY)
            from tile2cu import _device
            arch = _device.devices().archs[0]
    samples = [s for s in args.only.split(",") if s] or DEFAULT_SAMPLES
    results, ok = {"arch": arch}, True
    if gpu:
        import torch
        results["device"] = torch.cuda.get_device_name(0)
        print(f"device: {results['device']} ({arch})")
        ok &= correctness(env, arch)
        results["programs"], programs_ok = program_table(env)
        ok &= programs_ok
    elif not args.compile_only and not args.in_process_only:
        print("no GPU: only the build tables (--compile-only)")
    if not args.in_process_only:
        results["builds"], builds_ok = compile_table(samples, arch, env, nvcc_too=not args.nvrtc_only)
        ok &= builds_ok
    if not args.nvrtc_only:
        results["in_process"], seq_ok = in_process_table(samples, arch, env)
        ok &= seq_ok
    if gpu:
        overhead(env)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
    print("\nall checks passed" if ok else "\nSOME CHECKS FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
