#!/usr/bin/env python3
"""Compile tests: every sample's generated .cu builds with nvcc for sm_80 and sm_90a, warning-free.

    compile_samples.py TILE2CU [NVCC]

Skips (exit 0, says so) when nvcc is not installed.
"""
import concurrent.futures
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Both targets in one nvcc call: the host side (preprocessing, cudafe++, the host compiler) then
# runs once per sample instead of once per target, about a third of the time; each target still
# gets its own device compile (cicc, ptxas) with the same flags. -arch=sm_80 spelled out: SASS for
# sm_80 plus compute_80 PTX.
TARGETS = {
    "sm_80": ["-gencode=arch=compute_80,code=[sm_80,compute_80]"],
    "sm_90a": ["-gencode=arch=compute_90a,code=sm_90a"],
}


def main():
    tool = sys.argv[1]
    nvcc = sys.argv[2] if len(sys.argv) > 2 else (shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    if not os.path.exists(nvcc):
        print("nvcc not found: compile tests skipped")
        return 0
    samples = sorted(p for p in (ROOT / "samples").glob("*.py") if p.with_suffix(".sigs").exists())
    jobs = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        failed = []
        for s in samples:
            out = tmp / (s.stem + ".cu")
            r = subprocess.run([tool, str(s), "-o", str(out)], capture_output=True, text=True)
            if r.returncode != 0:
                failed.append(f"{s.name}: transpile failed\n{r.stderr}")
                continue
            arch_flags = [f for flags in TARGETS.values() for f in flags]
            cmd = [nvcc, "-std=c++17", "-O3", "-I", str(ROOT / "runtime"), "-Werror", "all-warnings",
                   *arch_flags, "-c", str(out), "-o", str(tmp / f"{s.stem}.o")]
            jobs.append((f"{s.name} [{' + '.join(TARGETS)}]", cmd))
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
            results = list(pool.map(lambda j: (j[0], subprocess.run(j[1], capture_output=True, text=True)), jobs))
        passed = 0
        for name, r in results:
            if r.returncode == 0:
                passed += 1
            else:
                failed.append(f"{name}: nvcc failed\n{r.stderr[-3000:]}")
    for f in failed:
        print("FAIL", f)
    print(f"{passed} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
