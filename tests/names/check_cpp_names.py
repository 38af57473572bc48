#!/usr/bin/env python3
"""Property test of the naming rule (src/emit/cpp_names.cpp, docs/naming.md): kernels whose
names are drawn from Python's keyword-free identifier space transpile, and nvcc builds them.

The names: every name the rule reserves (C++ keywords and alternative tokens, the macros and
declared names of the toolkit's headers, the runtime's names: src/emit/cpp_reserved_names.inc),
the emitter's own names and patterns, names with the underscores C++ reserves, names shaped like
the rule's escapes, and a few non-ASCII ones. Each is used as a local and as a parameter (next to
the names the emitter derives from it: `a` beside `a_data`, `a_shape_0`, ...); the reserved
words, the emitter's names and the underscore and escape shapes also as kernel and
specialization names. Kernels are batched into a few files, one nvcc run each, so the test
takes minutes, not hours.

Usage: check_cpp_names.py path/to/tile2cu [--nvcc PATH] [--arch sm_90a] [--keep DIR]
Without nvcc, or with TILE2CU_TEST_NO_NVCC set to anything but 0 (scripts/sanitize.sh: the
sanitizers instrument tile2cu, not nvcc), the files are only transpiled; exit status 77
(skipped) then, when that passed.
"""
import argparse
import concurrent.futures
import keyword
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "src" / "emit" / "cpp_reserved_names.inc"
RUNTIME_TABLE = ROOT / "src" / "emit" / "runtime_names.inc"

# The emitter's own names (cuda_emitter.cpp, kernel_body.cpp and the templates) and instances
# of the patterns it derives names by.
EMITTER_NAMES = """
stream grid grid_x grid_y grid_z device major threads kernel use_whole_copy whole_copy_fits
tiles_whole fixed_tiles_whole whole whole_at_launch smem list_words list_table e t t_2 t_3
attention_state printed_value0 kThreads kWholeThreads kCopyThreads kTilesWhole kSmemBytes
kHopperSmemBytes kMaxRank Layout Layout_16 Layout_2 Layout_16x16 GemmLoop_64x64x32
GemmLoop_64x64x32_BT AttentionLoop_64x64x64 kGemmLoop_64x64x32_Stages launch_k tile2cu_k
p0 p0_data p0_shape_0 p0_stride_0 p0_arg p0_at p0_words p0_count p0_table p0_size p0_tma
p0_p1_tma p0_tile p0_2 p0_item2 p0_slice2 x_tile x_shape x_shape_2 x_stride_1
""".split()
# Names with underscores C++ reserves or the emitter would double, and the rule's own shapes.
SHAPES = """
_ __ ___ _x __x x_ x__ __init__ a__b _X _Int _1 __2d x_py int_py x_py1x0 n_py1 n_1_py1x0
init_py2x2 a_b_py0x2x0 py happy_py x_pyx
""".split()
NON_ASCII = ["π", "é_", "_ü", "naïve"]
# Python keywords are no names; the kernels below read `ct` and `range` after binding names.
NOT_NAMES = set(keyword.kwlist) | {"ct", "range"}


def table_sections():
    """The toolkit table's sections in order (keywords, macros, global names), then the
    runtime's names from the include rule's table (runtime_names.inc), less its operators."""
    sections = []
    for line in TABLE.read_text().splitlines():
        if line.startswith("// "):
            if not line.startswith(("// Generated", "// and the")):
                sections.append([])
        elif sections:
            sections[-1] += re.findall(r'"([^"]+)"', line)
    runtime = re.findall(r'^\{"([A-Za-z_][A-Za-z0-9_]*)",', RUNTIME_TABLE.read_text(), re.MULTILINE)
    return sections + [list(dict.fromkeys(runtime)) + ["detail"]]


def universe():
    """Every name for locals and parameters; the names for kernels and specializations: the
    keywords, the runtime's names, the emitter's and the shapes, and a fixed sample of the
    headers' macros and declared names (a kernel each for all of them would take hours to build;
    the rule treats them alike)."""
    keywords, macros, global_names, runtime = table_sections()
    usable = lambda seq: list(dict.fromkeys(n for n in seq if n not in NOT_NAMES))
    names = usable(keywords + macros + global_names + runtime + EMITTER_NAMES + SHAPES)
    sample = random.Random(28).sample(macros + global_names, 300)
    top = usable(keywords + runtime + sample + EMITTER_NAMES + SHAPES)
    return names, top


def chunks(seq, n):
    return [seq[i:i + n] for i in range(0, len(seq), n)]


def locals_and_params_file(names, per_kernel=60, arrays=20, scalars=40):
    """Kernels k0, k1, ...: each binds `per_kernel` names as locals (through loads, reductions,
    a rebinding and a loop) and takes `arrays` array and `scalars` int32 parameters named from
    the universe, so that every name is a parameter once too."""
    py, sigs = ["import cuda.tile as ct", ""], []
    pool = [n for n in names if n.isascii()]  # the signature syntax is ASCII
    for k, group in enumerate(chunks(names, per_kernel)):
        ps = []
        for i in range(arrays + scalars):
            p = pool[(k * (arrays + scalars) + i) % len(pool)]
            if k == 0 and i < 4:  # an array beside the names the emitter derives from it
                p = ["a", "a_data", "a_shape_0", "a_arg"][i]
            ps.append(f"q{k}_{i}" if p in group or p in ps else p)
        arr, sca = ps[:arrays], ps[arrays:]
        lines = ["@ct.kernel", f"def k{k}({', '.join(ps)}):",
                 f"    {group[0]} = ct.load({arr[0]}, index=(ct.bid(0),), shape=(16,))"]
        prev, loop_variable = group[0], group[-1]
        for i, n in enumerate(group[1:-1], 1):
            if i % 3 == 0:
                lines.append(f"    {n} = {prev} + ct.load({arr[i % arrays]}, index=(ct.bid(0),), shape=(16,))")
            elif i % 3 == 1:
                lines.append(f"    {n} = {prev} * {sca[i % scalars]}")
            else:
                lines.append(f"    {n} = ct.sum({prev}) + {sca[i % scalars]}")
                lines.append(f"    {n} = {prev} + {n}")
            prev = n
        lines.append(f"    for {loop_variable} in range({sca[0]}):")
        lines.append(f"        ct.store({arr[1]}, index=({loop_variable},), tile={prev})")
        lines.append(f"    ct.store({arr[0]}, index=(ct.bid(0),), tile={prev})")
        py += lines + [""]
        sig = ", ".join([f"{a}=int32[?]" for a in arr] + [f"{s}=int32" for s in sca])
        sigs.append(f"k{k}({sig})")
    return "\n".join(py) + "\n", "\n".join(sigs) + "\n"


def kernels_and_specs_file(names):
    """One kernel per name, each specialized under the next name: `spec = kernel(...)`."""
    py, sigs = ["import cuda.tile as ct", ""], []
    ascii_names = [n for n in names if n.isascii()]
    for i, n in enumerate(ascii_names):
        spec = ascii_names[(i + 1) % len(ascii_names)]
        py += ["@ct.kernel", f"def {n}(out, value):",
               "    ct.store(out, index=(ct.bid(0),), tile=ct.full((16,), value, dtype=ct.int32))", ""]
        sigs.append(f"{spec} = {n}(out=int32[?], value=int32)")
    return "\n".join(py) + "\n", "\n".join(sigs) + "\n"


def build(tool, nvcc, arch, folder, name, py, sigs):
    (folder / f"{name}.py").write_text(py)
    (folder / f"{name}.sigs").write_text(sigs)
    r = subprocess.run([tool, str(folder / f"{name}.py"), "-o", str(folder / f"{name}.cu")],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        return f"{name}: tile2cu failed ({r.returncode}):\n{r.stderr[-4000:]}"
    if nvcc is None:
        return None
    # PTX for one target, no ptxas: a name clash stops the C++ front ends (cicc for the device
    # side, the host compiler for the launcher), not ptxas; -arch=sm_90a also ran cicc a second
    # time, for compute_90's PTX.
    r = subprocess.run([nvcc, "-std=c++17", "-I", str(ROOT / "runtime"),
                        f"-gencode=arch={arch.replace('sm_', 'compute_')},code={arch.replace('sm_', 'compute_')}", "-c",
                        str(folder / f"{name}.cu"), "-o", str(folder / f"{name}.o")],
                       capture_output=True, text=True, timeout=1500)
    if r.returncode != 0:
        errors = [l for l in (r.stdout + r.stderr).splitlines() if "error" in l]
        return f"{name}: nvcc failed:\n" + "\n".join(errors[:40])
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tile2cu")
    ap.add_argument("--nvcc", default=os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc"))
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("--keep", help="write the kernels here and keep them")
    args = ap.parse_args()
    nvcc = args.nvcc if shutil.which(args.nvcc) or Path(args.nvcc).is_file() else None
    if os.environ.get("TILE2CU_TEST_NO_NVCC", "0") not in ("", "0"):
        nvcc = None
    names, top = universe()
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="cpp_names."))
    folder.mkdir(parents=True, exist_ok=True)
    half = len(names) // 2
    jobs = [("locals_a", *locals_and_params_file(names[:half])),
            ("locals_b", *locals_and_params_file(names[half:] + NON_ASCII)),
            ("kernels", *kernels_and_specs_file(top))]
    print(f"{len(names)} names as locals and parameters, {len(top)} as kernel and specialization names")
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        failures = [f for f in pool.map(lambda j: build(args.tile2cu, nvcc, args.arch, folder, *j), jobs) if f]
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)
    for f in failures:
        print(f)
    print("ok" if not failures else f"{len(failures)} of {len(jobs)} files failed")
    if failures:
        return 1
    if nvcc is None:
        print(f"transpiled only: no nvcc at {args.nvcc}, or TILE2CU_TEST_NO_NVCC")
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main())
