"""TMA tensor maps on the NVRTC launch path, proved without a GPU by interception: the same GEMM
and attention specializations launched (a) by the generated C++ launcher (the transpiler's .cu,
built by nvcc with `-cudart none` against stand_in_cuda.c, so its runtime calls, its encode_map's
cudaGetDriverEntryPointByVersion and its kernel launch all land in the stand-in) and (b) by the
Python entry made from the launch plan (_launch_plan, _tensor_maps, _driver_api over the same
stand-in loaded as libcuda). Both sides must make the same cuTensorMapEncodeTiled calls with the
same arguments, in the same order, and launch with the same grid, block, shared memory and
parameter bytes, tensor-map structs included (the stand-in's maps are a hash of their
arguments). The struct's place among the kernel's parameters is checked against the cubin's own
parameter table."""

import ctypes
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import nvcc_available
from test_launch_plan import kparam_info, needs_nvrtc
from tile2cu import _build, _driver_api, _launch_plan, _nvrtc, _nvrtc_build

HERE = Path(__file__).resolve().parent
SAMPLES = HERE.parents[1] / "samples"
STAND_IN = HERE / "stand_in_cuda.c"


def sig_of(sample: str, spec: str) -> str:
    for line in (SAMPLES / f"{sample}.sigs").read_text().splitlines():
        if line.startswith(f"{spec} ="):
            return line
    raise AssertionError(f"no {spec} in {sample}.sigs")


SPECS = {   # spec: (sample, kernel)
    "matmul_bf16": ("matmul", "matmul"),
    "linear_bf16": ("matmul", "linear"),
    "attention_bf16_d64_causal": ("attention", "attention_fwd"),
    "attention_f16_d128": ("attention", "attention_fwd"),
}


def vendor(gen: Path, spec: str) -> dict:
    sample, kernel = SPECS[spec]
    out = gen.parent / f"gen_{spec}"
    subprocess.run([str(_build.find_tool()), str(SAMPLES / f"{sample}.py"), "--kernel", kernel,
                    "--sig", sig_of(sample, spec), "--vendor", str(out)], check=True)
    # One folder for the harness: each spec's .cu/.cuh renamed after the spec, the runtime once.
    gen.mkdir(exist_ok=True)
    for f in out.iterdir():
        if f.is_dir():
            shutil.copytree(f, gen / f.name, dirs_exist_ok=True)
        elif f.suffix in (".cu", ".cuh"):
            text = f.read_text().replace(f'#include "{sample}.cuh"', f'#include "{spec}.cuh"')
            (gen / f"{spec}{f.suffix}").write_text(text)
    return _launch_plan.specialization(json.loads((out / f"{sample}.plan.json").read_text()), spec)


# ---- (a) the generated launcher, built by nvcc against the stand-in --------------------------

def c_call(spec: str, plan: dict) -> str:
    """The C entry's call on tokens t[0..]: grid, then per array pointer, shapes, strides and per
    scalar its value, as the plan lists the parameters."""
    args, i = ["nullptr", "U(0)", "U(1)", "U(2)"], 3
    for p in plan["params"]:
        if p["kind"] == "array":
            args.append(f"P({i})")
            args += [f"L({i + 1 + k})" for k in range(2 * p["rank"])]
            i += 1 + 2 * p["rank"]
        elif p["kind"] == "scalar" and p["dtype"] == "float32":
            args.append(f"F({i})")
            i += 1
        else:
            raise AssertionError(f"no harness for a {p['kind']} of {p.get('dtype')}")
    return f"    if (spec == \"{spec}\") rc = tile2cu_{spec}({', '.join(args)});\n"


def build_harness(tmp_path: Path, plans: dict) -> Path:
    gen = tmp_path / "gen"
    main = gen / "harness.cu"
    main.write_text(
        "".join(f'#include "{spec}.cu"\n' for spec in plans) +
        "#include <cstdio>\n#include <cstdlib>\n#include <iostream>\n#include <sstream>\n"
        "#include <string>\n#include <vector>\n"
        'extern "C" void stand_in_set_param_sizes(const char*);\n'
        "// Per line: spec, parameter sizes, the device's major, the encoder's result, the C entry's\n"
        "// arguments (grid first); prints the entry's return code.\n"
        "int main() {\n  std::string line;\n  while (std::getline(std::cin, line)) {\n"
        "    std::istringstream in(line);\n    std::string spec, sizes, major, result, w;\n"
        "    in >> spec >> sizes >> major >> result;\n    std::vector<std::string> t;\n"
        "    while (in >> w) t.push_back(w);\n"
        "    stand_in_set_param_sizes(sizes.c_str());\n"
        '    setenv("TILE2CU_STAND_IN_MAJOR", major.c_str(), 1);\n'
        '    setenv("TILE2CU_STAND_IN_ENCODE_RESULT", result.c_str(), 1);\n'
        "    auto U = [&](int i) { return unsigned(std::stoul(t[i])); };\n"
        "    auto P = [&](int i) { return reinterpret_cast<void*>(std::stoull(t[i])); };\n"
        "    auto L = [&](int i) { return int64_t(std::stoll(t[i])); };\n"
        "    auto F = [&](int i) { return std::stof(t[i]); };\n"
        "    int rc = -1;\n" + "".join(c_call(spec, plan) for spec, plan in plans.items()) +
        '    printf("%d\\n", rc);\n  }\n}\n')
    exe = tmp_path / "harness"
    # compute_80 as PTX only: the host half is the point, and ptxas would only cost time.
    subprocess.run([str(_build.find_nvcc()), "-std=c++17", "-cudart", "none", "-gencode",
                    "arch=compute_80,code=compute_80", "-I", str(gen), str(main), str(STAND_IN),
                    "-o", str(exe)], check=True)
    return exe


def run_cpp(exe: Path, log: Path, spec: str, sizes: str, major: int, result: int, args) -> tuple:
    log.write_text("")
    line = " ".join(map(str, [spec, sizes, major, result, *args]))
    out = subprocess.run([str(exe)], input=line + "\n", capture_output=True, text=True, check=True,
                         env={"TILE2CU_STAND_IN_LOG": str(log), "PATH": "/usr/bin:/bin"})
    return int(out.stdout.split()[0]), log.read_text().splitlines()


# ---- (b) the Python entry over the stand-in as libcuda ----------------------------------------

@pytest.fixture
def stand_in_driver(tmp_path, monkeypatch):
    lib_path = tmp_path / "libstand_in_cuda.so"
    subprocess.run(["cc", "-O1", "-shared", "-fPIC", "-o", str(lib_path), str(STAND_IN)], check=True)
    lib = ctypes.CDLL(str(lib_path))
    _driver_api._declare(lib)
    monkeypatch.setattr(_driver_api, "_lib", lib)
    monkeypatch.setattr(_driver_api, "_encoder", None)
    lib.stand_in_set_param_sizes.argtypes = [ctypes.c_char_p]
    return lib


def run_python(lib, monkeypatch, log: Path, plan: dict, sizes: str, major: int, result: int, args) -> tuple:
    log.write_text("")
    monkeypatch.setenv("TILE2CU_STAND_IN_LOG", str(log))
    monkeypatch.setenv("TILE2CU_STAND_IN_MAJOR", str(major))
    monkeypatch.setenv("TILE2CU_STAND_IN_ENCODE_RESULT", str(result))
    lib.stand_in_set_param_sizes(sizes.encode())
    # A fresh entry: the module (and the device's major) is read at its first launch.
    entry = _launch_plan.make_entry(plan, {"sm_90a": b"cubin"}, {e: "k" for e in plan["kernels"].values()},
                                    lambda: "sm_90a")
    return entry(0, *args), log.read_text().splitlines()


# ---- the cases ---------------------------------------------------------------------------------

BASE = 0x7F0000000000


def matrix(ptr, rows, cols, lead=None, inner=1):
    return [ptr, rows, cols, lead if lead is not None else cols, inner]


def gemm_cases():
    """(name, major, encoder result, the C entry's arguments) of matmul(A, B, C) / linear(X, W, Y)."""
    a, b, c = BASE, BASE + 0x1000000, BASE + 0x2000000
    ok = [*matrix(a, 300, 128), *matrix(b, 128, 520), *matrix(c, 300, 520)]
    return [
        ("encoded", 9, 0, [3, 3, 1, *ok]),
        ("ragged and padded", 9, 0, [2, 5, 1, *matrix(a, 200, 72, lead=80), *matrix(b, 72, 1000, lead=1024),
                                     *matrix(c, 200, 1000)]),
        ("an sm_80 device: no maps", 8, 0, [3, 3, 1, *ok]),
        ("A misaligned: none encoded", 9, 0, [3, 3, 1, *matrix(a + 8, 300, 128), *ok[5:]]),
        ("B's rows not 16-byte strided: A encoded, not usable", 9, 0,
         [3, 3, 1, *ok[:5], *matrix(b, 128, 520, lead=524), *ok[10:]]),
        ("A's rows not contiguous", 9, 0, [3, 3, 1, *matrix(a, 300, 128, lead=256, inner=2), *ok[5:]]),
        ("the driver refuses the first map", 9, 1, [3, 3, 1, *ok]),
    ]


def attention_cases(d):
    """The same for attention_fwd(Q, K, V, O, scale) over (heads, seq, d)."""
    q, k, v, o = BASE, BASE + 0x1000000, BASE + 0x2000000, BASE + 0x3000000

    def t3(ptr, heads, seq, lead=None):
        lead = lead or d
        return [ptr, heads, seq, d, seq * lead, lead, 1]

    ok = [*t3(q, 4, 256), *t3(k, 4, 320), *t3(v, 4, 320), *t3(o, 4, 256), 0.125]
    return [
        ("encoded", 9, 0, [2, 4, 1, *ok]),
        ("padded rows", 9, 0, [2, 4, 1, *t3(q, 4, 256), *t3(k, 4, 320, lead=d + 8), *t3(v, 4, 320, lead=d + 64),
                               *t3(o, 4, 256), 0.5]),
        ("an sm_80 device: no maps", 8, 0, [2, 4, 1, *ok]),
        ("V misaligned: K encoded, not usable", 9, 0, [2, 4, 1, *ok[:14], *t3(v + 2, 4, 320), *ok[21:]]),
        ("the driver refuses the first map", 9, 700, [2, 4, 1, *ok]),
    ]


CASES = {"matmul_bf16": gemm_cases(), "linear_bf16": gemm_cases(),
         "attention_bf16_d64_causal": attention_cases(64), "attention_f16_d128": attention_cases(128)}


@pytest.mark.skipif(not nvcc_available() or not shutil.which("cc"), reason="nvcc or cc not found")
def test_the_plan_s_tensor_maps_are_what_the_generated_launcher_encodes(tmp_path, stand_in_driver, monkeypatch):
    plans = {spec: vendor(tmp_path / "gen", spec) for spec in SPECS}
    for spec, plan in plans.items():
        assert plan["host_launcher_only"] is None, spec
        assert [k["type"] for k in plan["kernel_params"]].count("tensor_maps") == 1, spec
    exe = build_harness(tmp_path, plans)
    log = tmp_path / "calls.log"
    encoded = 0
    for spec, plan in plans.items():
        sizes = ",".join(str(k["bytes"]) for k in plan["kernel_params"])
        for name, major, result, args in CASES[spec]:
            want = run_cpp(exe, log, spec, sizes, major, result, args)
            got = run_python(stand_in_driver, monkeypatch, log, plan, sizes, major, result, args)
            assert got == want, f"{spec}: {name}"
            rc, lines = want
            assert rc == 0 and lines[-1].startswith("launch "), f"{spec}: {name}"
            encodes = [line for line in lines if line.startswith("encode ")]
            encoded += len(encodes)
            usable = lines[-1].split("|")[-1][2 * 256:2 * 260]
            assert usable == ("01000000" if len(encodes) == 2 and not result else "00000000"), f"{spec}: {name}"
    assert encoded > 20   # the cases do reach the encoder


@needs_nvrtc
@pytest.mark.parametrize("arch", ["sm_80", "sm_90a"])
def test_the_tensor_map_struct_is_the_parameter_the_compiled_kernel_takes(tmp_path, arch):
    """The struct is the kernel's last parameter, of the plan's size, every parameter before it
    where the plan packs it. ptxas places the struct itself on a 128-byte boundary of the
    constant bank, whose parameters start at a base of the architecture's (0x160 on sm_80, 0x210
    on sm_90), so its offset from the first parameter differs by architecture: cuLaunchKernel's
    kernelParams (a pointer per value) leave the placing to the driver, so only the value's
    bytes behind its pointer matter."""
    plan = vendor(tmp_path / "gen", "attention_bf16_d64_causal")
    cu = tmp_path / "gen" / "attention_bf16_d64_causal.cu"
    exprs = sorted(plan["kernels"].values())
    compiled = _nvrtc.compile_source(cu.read_text(), cu.name, arch,
                                     _nvrtc_build.options(tmp_path / "gen") + ["--Ofast-compile=max"], exprs)
    offsets, _, _ = _launch_plan.parameter_layout(plan["kernel_params"])
    base = {"sm_80": 0x160, "sm_90a": 0x210}[arch]
    for expr in exprs:
        params, _ = kparam_info(compiled.image, compiled.lowered[expr])
        last = len(plan["kernel_params"]) - 1
        assert sorted(params) == list(range(last + 1)), expr
        assert {n: params[n] for n in range(last)} == {
            n: (off, kp["bytes"]) for n, (off, kp) in enumerate(zip(offsets[:last], plan["kernel_params"]))}, expr
        struct_offset, struct_bytes = params[last]
        assert struct_bytes == plan["kernel_params"][last]["bytes"] == 384, expr
        assert (base + struct_offset) % plan["kernel_params"][last]["align"] == 0, expr


def test_a_tensor_map_of_a_type_the_launcher_does_not_know_is_refused():
    plan = {"spec": "s", "params": [], "kernel_params": [
        {"type": "tensor_maps", "bytes": 384, "align": 128,
         "value": {"tensor_maps": {"name": "A_B_tma", "min_compute_major": 9, "maps": [],
                                   "usable": {"offset": 256, "type": "int64"}}}}],
        "kernels": {"checked": "&s::k"}, "whole_tests": [], "blocks_per_cta": 1, "threads": 32,
        "whole_threads": 32}
    with pytest.raises(_launch_plan.PlanError, match="tensor maps of A_B_tma"):
        _launch_plan.make_entry(plan, {}, {}, lambda: "sm_90a", launch=lambda *a: 0)
