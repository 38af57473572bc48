#!/usr/bin/env python3
"""--vendor: a self-contained folder that builds with plain nvcc and no tile2cu installed.

    check_vendor.py TILE2CU [NVCC]

Copies the tile2cu binary to a temporary folder (so the runtime headers must come from inside
the binary), vendors samples into another folder and checks that it holds the .cu, the .cuh
and exactly the runtime headers they include (transitively), byte for byte as in runtime/;
then builds the .cu with `nvcc -I <folder>` and nothing else, and includes the .cuh from a
plain host compiler. Bad input and --vendor with -o write nothing. The nvcc part is skipped
(and said so) when nvcc is not installed.
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
RUNTIME = ROOT / "runtime"
SAMPLES = ["vector_add", "row_bias_scale"]
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL", what)
    return cond


def closure(texts):
    """Runtime headers (tile2cu/...) reached from `texts` through #include lines."""
    found, work = set(), []

    def visit(text, here):
        for quote, name in INCLUDE.findall(text):
            cand = None
            if quote == '"' and here and (RUNTIME / here / name).is_file():
                cand = f"{here}/{name}"
            elif name.startswith("tile2cu/") and (RUNTIME / name).is_file():
                cand = name
            if cand and cand not in found:
                found.add(cand)
                work.append(cand)

    for t in texts:
        visit(t, "")
    while work:
        name = work.pop()
        visit((RUNTIME / name).read_text(), os.path.dirname(name))
    return found


def main():
    tool = pathlib.Path(sys.argv[1]).resolve()
    nvcc = sys.argv[2] if len(sys.argv) > 2 else (shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    # TILE2CU_TEST_NO_NVCC (scripts/sanitize.sh): the sanitizers instrument tile2cu, not nvcc.
    have_nvcc = os.path.exists(nvcc) and os.environ.get("TILE2CU_TEST_NO_NVCC", "0") in ("", "0")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        (tmp / "bin").mkdir()
        copied = tmp / "bin" / "tile2cu"
        shutil.copy2(tool, copied)
        work = tmp / "work"
        work.mkdir()
        for name in SAMPLES:
            out = tmp / f"vendor_{name}"
            r = subprocess.run([str(copied), str(ROOT / "samples" / f"{name}.py"), "--vendor", str(out)],
                               cwd=work, capture_output=True, text=True)
            if not check(r.returncode == 0, f"{name}: --vendor failed: {r.stderr}"):
                continue
            cu, cuh = out / f"{name}.cu", out / f"{name}.cuh"
            check(cu.is_file() and cuh.is_file(), f"{name}: {name}.cu / {name}.cuh missing")
            # Same code as -o writes (the vendored .cu includes its header by plain name).
            ref = subprocess.run([str(copied), str(ROOT / "samples" / f"{name}.py"), "-o", str(tmp / f"{name}.cu")],
                                 capture_output=True, text=True)
            check(ref.returncode == 0 and (tmp / f"{name}.cu").read_text() == cu.read_text()
                  and (tmp / f"{name}.cuh").read_text() == cuh.read_text(),
                  f"{name}: vendored .cu/.cuh differ from what -o writes")
            # The launch plan (for launchers that compile only device code) is -o's --emit=plan.
            plan = subprocess.run([str(copied), str(ROOT / "samples" / f"{name}.py"), "--emit=plan"],
                                  capture_output=True, text=True)
            check((out / f"{name}.plan.json").is_file() and plan.returncode == 0
                  and (out / f"{name}.plan.json").read_text() == plan.stdout,
                  f"{name}: {name}.plan.json missing or not what --emit=plan prints")
            want = closure([cu.read_text(), cuh.read_text()])
            have = {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()} - {
                f"{name}.cu", f"{name}.cuh", f"{name}.plan.json"}
            check(want, f"{name}: the generated code includes no runtime header?")
            check(have == want, f"{name}: vendored headers {sorted(have)} != included {sorted(want)}")
            for h in sorted(have & want):
                check((out / h).read_bytes() == (RUNTIME / h).read_bytes(), f"{name}: {h} differs from runtime/{h}")
            # Vendoring again is idempotent and leaves files alone.
            before = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
            r = subprocess.run([str(copied), str(ROOT / "samples" / f"{name}.py"), "--vendor", str(out)],
                               cwd=work, capture_output=True, text=True)
            check(r.returncode == 0 and before == {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()},
                  f"{name}: a second --vendor rewrote unchanged files")
            if not have_nvcc:
                continue
            obj = tmp / f"{name}.o"
            cmd = [nvcc, "-std=c++17", "-O3", "-arch=sm_80", "-Werror", "all-warnings", "-I", str(out), "-c", str(cu),
                   "-o", str(obj)]
            r = subprocess.run(cmd, cwd=work, capture_output=True, text=True)
            check(r.returncode == 0 and obj.exists(), f"{name}: nvcc -I <vendor dir> failed:\n{r.stderr[-3000:]}")
            # The header is plain C++ for the host side: g++ with the CUDA include folder.
            host = tmp / f"{name}_host.cpp"
            host.write_text(f'#include "{name}.cuh"\nint main() {{ return 0; }}\n')
            cuda_include = pathlib.Path(nvcc).resolve().parent.parent / "include"
            cxx = shutil.which("g++") or shutil.which("c++")
            if cxx:
                r = subprocess.run([cxx, "-std=c++17", "-fsyntax-only", "-I", str(out), "-I", str(cuda_include), str(host)],
                                   capture_output=True, text=True)
                check(r.returncode == 0, f"{name}: the vendored .cuh does not build with {cxx}:\n{r.stderr[-3000:]}")

        # Errors: nothing written.
        bad = tmp / "bad"
        r = subprocess.run([str(copied), str(ROOT / "tests" / "bad_inputs" / "004_try_except.py"), "--vendor", str(bad)],
                           capture_output=True, text=True)
        check(r.returncode != 0 and not bad.exists(), "bad input: --vendor succeeded or wrote files")
        r = subprocess.run([str(copied), str(ROOT / "samples" / "vector_add.py"), "--vendor", str(bad), "-o",
                            str(tmp / "x.cu")], capture_output=True, text=True)
        check(r.returncode != 0 and not bad.exists(), "--vendor with -o was accepted")
    if not have_nvcc:
        print("no nvcc (not found, or TILE2CU_TEST_NO_NVCC): the vendored folders were checked but "
              "not compiled")
    print(f"{len(failures)} failed" if failures else "vendor: all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
