"""The NVRTC launch path without a GPU: the launch plan the transpiler writes, the kernel
parameter buffer against the compiled kernel's own parameter table (the cubin's
EIATTR_KPARAM_INFO), the generated entry's checks, packing and choice of copy against a stand-in
driver and against the generated launcher's own whole-tile test (built by nvcc, run on the
host), and the fallback to nvcc with its reason."""

import ctypes
import hashlib
import json
import random
import re
import struct
import subprocess
from pathlib import Path

import pytest

from conftest import nvcc_available
from tile2cu import _build, _launch_plan, _nvrtc, _nvrtc_build

HERE = Path(__file__).resolve().parent
KERNELS = HERE / "plan_kernels.py"
MIXED = ("mixed", "m = mixed(x=float16[?, ?], flag=bool, n=int64, h=float16, b=bfloat16, "
                  "f=float32, d=float64, y=float32[?, ?], TILE=64)")
ROWS = ("rows", "r = rows(x=float32[?, ?], y=float32[?, ?] align16 contiguous, TILE=1024)")
LISTED = ("listed", "l = listed(xs=list[float32[?]], y=float32[?], TILE=256)")
ZERO_D = ("scaled", "s0 = scaled(x=float32[?], s=float32[] align16, y=float32[?] align16 contiguous, TILE=128)")


def nvrtc_available():
    try:
        _nvrtc.load()
        return bool(_nvrtc_build.include_dirs())
    except _nvrtc.NvrtcUnavailable:
        return False


needs_nvrtc = pytest.mark.skipif(not nvrtc_available(), reason="libnvrtc or the CUDA headers not found")


def vendor(tmp_path, kernel, sig):
    gen = tmp_path / "gen"
    subprocess.run([str(_build.find_tool()), str(KERNELS), "--kernel", kernel, "--sig", sig,
                    "--vendor", str(gen)], check=True)
    plan_file = json.loads((gen / "plan_kernels.plan.json").read_text())
    return gen, _launch_plan.specialization(plan_file, sig.split(" = ")[0])


# ---- the plan ----------------------------------------------------------------------------------

def test_the_plan_lists_each_parameter_as_the_c_entry_takes_it(tmp_path):
    _, plan = vendor(tmp_path, *MIXED)
    assert [p["kind"] for p in plan["params"]] == ["array", "scalar", "scalar", "scalar", "scalar",
                                                   "scalar", "scalar", "array"]
    types = [k["type"] for k in plan["kernel_params"]]
    assert types[:5] == ["pointer", "int32", "int32", "int32", "int32"]
    assert types[5:11] == ["bool_", "int64", "float16", "bfloat16", "float32", "float64"]
    assert plan["host_launcher_only"] is None
    assert plan["kernels"] == {"checked": "&m::mixed<false>", "whole": "&m::mixed<true>"}


def test_a_plan_that_needs_its_host_launcher_is_refused():
    plan = {"host_launcher_only": "what the plan cannot describe", "params": [], "kernel_params": []}
    with pytest.raises(_launch_plan.PlanError, match="needs its host launcher: what the plan"):
        _launch_plan.make_entry(plan, {}, {}, lambda: "sm_80", launch=lambda *a: 0)


def test_an_unknown_plan_format_is_refused():
    with pytest.raises(_launch_plan.PlanError, match="format 2"):
        _launch_plan.specialization({"format": 2, "specializations": []}, "x")


# ---- the parameter buffer against the cubin -----------------------------------------------------

def kparam_info(cubin: bytes, kernel: str) -> tuple[dict[int, tuple[int, int]], int]:
    """({ordinal: (offset, size)}, parameter bank size) of `kernel` in an ELF cubin: its
    .nv.info.<kernel> section's EIATTR_KPARAM_INFO (0x17) and EIATTR_PARAM_CBANK (0x0a)."""
    shoff = struct.unpack_from("<Q", cubin, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", cubin, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", cubin, shoff + i * shentsize) for i in range(shnum)]
    names = sections[shstrndx]

    def name(off):
        start = names[4] + off
        return cubin[start:cubin.index(b"\0", start)].decode()

    for sec in sections:
        if name(sec[0]) != f".nv.info.{kernel}":
            continue
        body, i, params, bank = cubin[sec[4]:sec[4] + sec[5]], 0, {}, None
        while i < len(body):
            fmt, attr = body[i], body[i + 1]
            if fmt == 4:   # EIFMT_SVAL: a 16-bit size, then the value
                size = struct.unpack_from("<H", body, i + 2)[0]
                data = body[i + 4:i + 4 + size]
                if attr == 0x17:
                    _, ordinal, offset, word = struct.unpack("<IHHI", data)
                    params[ordinal] = (offset, word >> 18)
                elif attr == 0x0A:
                    bank = struct.unpack("<IHH", data)[2]
                i += 4 + size
            elif fmt in (2, 3):   # EIFMT_BVAL, EIFMT_HVAL
                i += 4
            else:
                i += 2
        return params, bank
    raise AssertionError(f"no .nv.info.{kernel} in the cubin")


@needs_nvrtc
@pytest.mark.parametrize("case", [MIXED, ROWS, ZERO_D, LISTED], ids=["mixed", "rows", "zero_d", "list"])
def test_the_packed_parameters_sit_where_the_compiled_kernel_reads_them(tmp_path, case):
    gen, plan = vendor(tmp_path, *case)
    cu = gen / "plan_kernels.cu"
    exprs = sorted(plan["kernels"].values())
    compiled = _nvrtc.compile_source(cu.read_text(), cu.name, "sm_80",
                                     _nvrtc_build.options(gen) + ["--Ofast-compile=max"], exprs)
    offsets, size, _ = _launch_plan.parameter_layout(plan["kernel_params"])
    for expr in exprs:
        params, bank = kparam_info(compiled.image, compiled.lowered[expr])
        assert params == {n: (off, kp["bytes"]) for n, (off, kp) in
                          enumerate(zip(offsets, plan["kernel_params"]))}, expr
        assert bank == size, expr


# ---- the entry, against a stand-in driver -------------------------------------------------------

class FakeState:
    """_ModuleState without a GPU: loaded 'kernels' 1 (checked) and 2 (whole)."""

    def __init__(self, plan, fits=True):
        offsets, self.size, _ = _launch_plan.parameter_layout(plan["kernel_params"])
        self.loaded_module = _launch_plan.Loaded()
        self.loaded_module.checked, self.loaded_module.whole = 1, 2
        self.loaded_module.use_whole_copy_fits, self.loaded_module.smem = fits, 0
        self.buf = bytearray(self.size)
        self.offsets = offsets

    def loaded(self):
        return self.loaded_module

    def buffers(self):
        return self.buf, "pointers"


def entry_for(plan, fits=True):
    launches = []
    state = FakeState(plan, fits)
    entry = _launch_plan.make_entry(plan, {}, {}, lambda: "sm_80",
                                    launch=lambda *a: launches.append(a) or 0, state=state)
    return entry, launches, state


def test_the_entry_packs_what_the_c_entry_passes(tmp_path):
    _, plan = vendor(tmp_path, *MIXED)
    entry, launches, state = entry_for(plan)
    x = (0x7F0000000000, 5, 64, 64, 1)   # pointer, shapes, strides
    y = (0x7F0000100000, 5, 64, 64, 1)
    assert entry(0, 5, 1, 1, *x, True, -(2**40), 1.5, 3.0, 0.25, 1e300, *y) == 0
    (fn, cx, cy, cz, threads, _, _, smem, stream, pointers, extra), = launches
    assert (fn, cy, cz, smem, pointers, extra) == (2, 1, 1, 0, "pointers", None)
    assert cx == -(-5 // plan["blocks_per_cta"]) and threads == plan["whole_threads"]
    values = [struct.unpack_from("<" + _launch_plan._STRUCT_CODE[kp["type"]], state.buf, off)[0]
              for kp, off in zip(plan["kernel_params"], state.offsets)]
    half, bf16 = struct.unpack("<H", struct.pack("<e", 1.5))[0], 0x4040
    expected = [*x[:1], *[v for v in x[1:]], True, -(2**40), half, bf16, 0.25, 1e300, *y]
    if plan["blocks_per_cta"] > 1:
        expected.append(5)   # blocks_x: the grid's blocks along x
    assert values == expected


def test_a_zero_d_array_is_its_pointer_alone(tmp_path):
    _, plan = vendor(tmp_path, *ZERO_D)
    entry, launches, state = entry_for(plan)
    x, y = (0x7F0000000000, 1000, 1), (0x7F0000100000, 1000, 1)
    assert entry(0, 8, 1, 1, *x, 0x7F0000200000, *y) == 0
    assert entry(0, 8, 1, 1, *x, 0x7F0000200004, *y) == 716   # s promised align16
    kinds = [(kp["type"], kp["value"].get("part")) for kp in plan["kernel_params"]]
    assert kinds[3] == ("pointer", "data") and kinds[4] == ("pointer", "data")


def test_lists_upload_one_table_and_each_list_gets_its_part(tmp_path):
    _, plan = vendor(tmp_path, *LISTED)
    assert plan["host_launcher_only"] is None
    uploads, frees, launches = [], [], []

    def upload(data, stream):
        uploads.append((data, stream))
        return 0, 0x5000000

    state = FakeState(plan)
    entry = _launch_plan.make_entry(plan, {}, {}, lambda: "sm_80",
                                    launch=lambda *a: launches.append(a) or 0, state=state,
                                    tables=(upload, lambda dptr, stream: frees.append((dptr, stream))))
    words = (ctypes.c_int64 * 6)(0x7F0000000000, 1000, 1, 0x7F0000100000, 24, 1)
    y = (0x7F0000200000, 1000, 1)
    assert entry(7, 4, 1, 1, words, 2, *y) == 0
    assert uploads == [(bytes(words), 7)] and frees == [(0x5000000, 7)]   # freed after the kernel
    packed = [struct.unpack_from("<" + _launch_plan._STRUCT_CODE[kp["type"]], state.buf, off)[0]
              for kp, off in zip(plan["kernel_params"], state.offsets)]
    assert packed[:2] == [0x5000000, 2]
    # An item beyond int32 is the C entry's cudaErrorInvalidValue; nothing is uploaded.
    assert entry(7, 4, 1, 1, (ctypes.c_int64 * 3)(0x7F0000000000, 2**31, 1), 1, *y) == 1
    assert len(uploads) == 1 and len(launches) == 1
    # A failed upload is the launch's error; nothing launches.
    failing = _launch_plan.make_entry(plan, {}, {}, lambda: "sm_80", launch=lambda *a: launches.append(a) or 0,
                                      state=state, tables=(lambda d, s: (2, 0), None))
    assert failing(7, 4, 1, 1, words, 2, *y) == 2 and len(launches) == 1


def test_list_items_are_checked_as_pack_array_list_checks_them():
    check = _launch_plan.check_list
    item = [0x7F0000000000, 8, 16, 16, 1]   # pointer, shape (2-d), strides
    assert check(item, 1, 2, (-1, -1), True, True)
    assert not check([0x7F0000000004, *item[1:]], 1, 2, (-1, -1), True, False)   # align16
    assert not check([*item[:4], 2], 1, 2, (-1, -1), False, True)                   # contiguous
    assert not check(item, 1, 2, (8, 32), False, False)                             # static extent
    assert check(item, 1, 2, (8, -1), False, False)
    assert not check([item[0], -1, *item[2:]], 1, 2, (-1, -1), False, False)        # negative shape
    assert not check(item, 2, 2, (-1, -1), False, False)                            # fewer words than items


def test_the_entry_refuses_what_the_c_entry_refuses(tmp_path):
    _, plan = vendor(tmp_path, *ROWS)
    entry, launches, _ = entry_for(plan)
    good = (0x7F0000000000, 4, 1024, 1024, 1)
    assert entry(0, 0, 1, 1, *good, *good) == 9                      # grid_ok
    assert entry(0, 4, 1, 1, *good, 0x7F0000000004, 4, 1024, 1024, 1) == 716   # align16
    assert entry(0, 4, 1, 1, *good, 0x7F0000000000, 4, 1024, 2048, 2) == 1     # contiguous
    assert entry(0, 4, 1, 1, 0x7F0000000000, 2**31, 1024, 1024, 1, *good) == 1  # int32 shape
    assert launches == []


def test_the_whole_copy_runs_where_every_block_s_tiles_are_whole(tmp_path):
    _, plan = vendor(tmp_path, *ROWS)
    assert plan["whole_tests"] and "whole" in plan["kernels"]
    entry, launches, _ = entry_for(plan)
    whole = (0x7F0000000000, 4, 1024, 1024, 1)
    assert entry(0, 4, 1, 1, *whole, *whole) == 0
    assert entry(0, 4, 1, 1, 0x7F0000000000, 4, 1000, 1000, 1, *whole) == 0   # ragged rows
    assert entry(0, 4, 1, 1, 0x7F0000000004, 4, 1024, 1024, 1, *whole) == 0   # unaligned x
    assert entry(0, 5, 1, 1, *whole, *whole) == 0                              # a block past the end
    assert [launch[0] for launch in launches] == [2, 1, 1, 1]
    entry, launches, _ = entry_for(plan, fits=False)   # the whole copy would lose occupancy
    assert entry(0, 4, 1, 1, *whole, *whole) == 0 and launches[0][0] == 1


def test_float_scalars_convert_as_the_c_entry_converts():
    assert _launch_plan.half_bits(65520.0) == 0x7C00        # rounds to inf, as __float2half
    assert _launch_plan.half_bits(-1e40) == 0xFC00
    assert _launch_plan.bfloat16_bits(1.0) == 0x3F80
    assert _launch_plan.bfloat16_bits(1.00390625) == 0x3F80   # halfway: to even
    assert _launch_plan.bfloat16_bits(1.01171875) == 0x3F82   # halfway: to even, upward
    assert _launch_plan.bfloat16_bits(float("nan")) & 0x7FC0 == 0x7FC0
    assert _launch_plan.float32(1e39) == float("inf")


# ---- choosing the compiler ----------------------------------------------------------------------

def test_tile2cu_compiler_chooses(monkeypatch):
    monkeypatch.setenv("TILE2CU_COMPILER", "nvcc")
    assert _nvrtc_build.choice() == ("nvcc", None)
    monkeypatch.setenv("TILE2CU_COMPILER", "gcc")
    with pytest.raises(ValueError, match="TILE2CU_COMPILER=gcc"):
        _nvrtc_build.choice()


@needs_nvrtc
def test_nvrtc_builds_and_caches_a_cubin(cache_dir, monkeypatch):
    monkeypatch.delenv("TILE2CU_COMPILER", raising=False)
    assert _nvrtc_build.choice() == ("nvrtc", None)
    tool = _build.find_tool()
    digest, _ = _build.source_digest(KERNELS)
    kernel, sig = ROWS
    spec, text = sig.split(" = ")
    built = _nvrtc_build.build(tool, digest, KERNELS, kernel, spec, text[len(kernel) + 1:-1], ("sm_80",))
    assert built.compiler == "nvrtc" and built.cold_seconds is not None
    meta = json.loads((built.folder / "meta.json").read_text())
    assert meta["compiler"] == "nvrtc" and (built.folder / "sm_80.cubin").is_file()
    assert set(meta["lowered"]) == {"&r::rows<false>", "&r::rows<true>"}
    again = _nvrtc_build.build(tool, digest, KERNELS, kernel, spec, text[len(kernel) + 1:-1], ("sm_80",))
    assert again.cold_seconds is None and again.folder == built.folder
    kernel, sig = LISTED
    spec, text = sig.split(" = ")
    listed = _nvrtc_build.build(tool, digest, KERNELS, kernel, spec, text[len(kernel) + 1:-1], ("sm_80",))
    assert listed.compiler == "nvrtc"


# ---- the whole-tile choice against the generated launcher's own test ----------------------------

def launcher_whole_test(gen: Path, tmp_path: Path):
    """A host program around the generated launcher's `tiles_whole` expression (its
    whole_in_every_block calls, runtime/tile2cu/memory.cuh), built by nvcc: it reads cases (grid,
    then per array pointer, shapes, strides) and prints whether the launcher proves them whole."""
    cu = (gen / "plan_kernels.cu").read_text()
    arrays = re.findall(r"^  tile2cu::Array<(.+)> (\w+)_arg;$", cu, re.M)
    expr = re.search(r"const bool tiles_whole =(.*?);\n", cu, re.S).group(1)
    read = []
    for elem_and_rank, name in arrays:
        rank = int(elem_and_rank.rsplit(",", 1)[1])
        read.append(f"    tile2cu::Array<{elem_and_rank}> {name}_arg;\n"
                    f"    scanf(\"%llu\", &p); {name}_arg.data = reinterpret_cast<decltype({name}_arg.data)>(p);\n"
                    f"    for (int k = 0; k < {rank}; ++k) {{ scanf(\"%lld\", &v); {name}_arg.shape[k] = int(v); }}\n"
                    f"    for (int k = 0; k < {rank}; ++k) {{ scanf(\"%lld\", &v); {name}_arg.stride[k] = int(v); }}\n")
    main = (gen / "whole_test.cu")
    main.write_text('#include "plan_kernels.cu"\n#include <cstdio>\nint main() {\n'
                    "  unsigned gx, gy, gz; unsigned long long p; long long v;\n"
                    "  while (scanf(\"%u %u %u\", &gx, &gy, &gz) == 3) {\n    dim3 grid(gx, gy, gz);\n"
                    + "".join(read) + f"    const bool tiles_whole ={expr};\n"
                    "    printf(\"%d\\n\", int(tiles_whole));\n  }\n}\n")
    exe = tmp_path / "whole_test"
    subprocess.run([str(_build.find_nvcc()), "-std=c++17", "-arch=sm_80", "-I", str(gen), str(main),
                    "-o", str(exe)], check=True)
    return exe


@pytest.mark.skipif(not nvcc_available(), reason="nvcc not found")
@pytest.mark.parametrize("case", [MIXED, ROWS], ids=["mixed", "rows"])
def test_the_entry_proves_tiles_whole_exactly_where_the_generated_launcher_does(tmp_path, case):
    gen, plan = vendor(tmp_path, *case)
    exe = launcher_whole_test(gen, tmp_path)
    entry, launches, _ = entry_for(plan)
    rng = random.Random(29)
    tile = 64 if case is MIXED else 1024
    cases, expected = [], []
    for _ in range(400):
        gx = rng.choice([1, 2, 3, 7, 8])
        rows = gx + rng.choice([-1, 0, 0, 3])
        cols = rng.choice([tile, 2 * tile, tile + 1, tile - 8, 3 * tile])
        arrays, scalars = [], []
        for p in plan["params"]:
            if p["kind"] == "scalar":
                scalars.append(1)
                arrays.append(None)
                continue
            lead = cols + rng.choice([0, 0, 4, 8, 1])
            strides = [lead, 1] if p["contiguous"] or rng.random() < 0.8 else [lead, 2]
            ptr = 0x7F0000000000 + (0 if p["aligned16"] else rng.choice([0, 0, 2, 4, 8, 16]))
            arrays.append((ptr, max(rows, 1), cols, *strides))
        flat = [v for a, s in zip(arrays, plan["params"]) for v in (a if a else [1])]
        launches.clear()
        assert entry(0, gx, 1, 1, *flat) == 0
        expected.append(launches[0][0] == 2)
        cases.append(" ".join(map(str, [gx, 1, 1, *[v for a in arrays if a for v in a]])))
    out = subprocess.run([str(exe)], input="\n".join(cases) + "\n", capture_output=True, text=True,
                         check=True).stdout.split()
    assert [o == "1" for o in out] == expected
    assert any(expected) and not all(expected)


def test_the_tool_s_hash_is_kept_on_disk_until_the_file_changes(cache_dir, tmp_path):
    tool = tmp_path / "tool"
    tool.write_bytes(b"one")
    first = _build._content_hash(tool, tool.stat())
    assert first == hashlib.sha256(b"one").hexdigest()
    memo, = (cache_dir / "tool-hashes").iterdir()
    memo.write_text("f" * 64)   # a later process reads it instead of hashing the file
    assert _build._content_hash(tool, tool.stat()) == "f" * 64
    tool.write_bytes(b"two!")   # rewritten: another size, mtime and ctime, another memo
    assert _build._content_hash(tool, tool.stat()) == hashlib.sha256(b"two!").hexdigest()


@needs_nvrtc
def test_a_kernel_with_tma_tensor_maps_builds_through_nvrtc(cache_dir):
    """Its plan describes the maps (test_tensor_maps.py proves them against the generated
    launcher's), so the GEMM goes through NVRTC too."""
    source = HERE.parents[1] / "samples" / "matmul.py"
    digest, _ = _build.source_digest(source)
    built = _nvrtc_build.build(_build.find_tool(), digest, source, "matmul", "matmul_bf16",
                               "A=bfloat16[?, ?], B=bfloat16[?, ?], C=bfloat16[?, ?], BM=128, BN=256, "
                               "BK=64, GROUP=8, TF32=False", ("sm_90a",))
    assert not isinstance(built, str), built
    assert built.compiler == "nvrtc" and (built.folder / "sm_90a.cubin").is_file()
    assert "tm0 = maps0(L.major, " in built.entry.source_text


@needs_nvrtc
def test_a_plan_that_needs_its_host_launcher_goes_to_nvcc_with_the_reason(cache_dir, monkeypatch):
    real = _launch_plan.specialization

    def needing_its_launcher(plan_file, spec):
        return dict(real(plan_file, spec), host_launcher_only="what the plan cannot describe")

    monkeypatch.setattr(_launch_plan, "specialization", needing_its_launcher)
    digest, _ = _build.source_digest(KERNELS)
    kernel, sig = ROWS
    spec, text = sig.split(" = ")
    reason = _nvrtc_build.build(_build.find_tool(), digest, KERNELS, kernel, spec, text[len(kernel) + 1:-1],
                                ("sm_80",))
    assert isinstance(reason, str) and "what the plan cannot describe" in reason
    # The entry records it: a later process goes to nvcc without transpiling again.
    meta = json.loads(next(cache_dir.rglob("meta.json")).read_text())
    assert meta["fallback"] == reason and not list(cache_dir.rglob("*.cubin"))


# ---- NVRTC's precompiled header: one parse of the runtime headers per process -----------------

@needs_nvrtc
def test_specializations_share_one_parse_of_the_runtime_headers(cache_dir, tmp_path):
    """Two specializations built in one process compile with the same options (a shared runtime
    header folder, not each entry's own gen/), so NVRTC's automatic precompiled header made by
    the first is used by the second."""
    tool = _build.find_tool()
    logs = []
    for n, sig in enumerate([ROWS[1], "r2 = rows(x=float32[?, ?], y=float32[?, ?], TILE=512)"]):
        gen, plan = vendor(tmp_path / str(n), "rows", sig)
        cu = gen / "plan_kernels.cu"
        opts = _nvrtc_build.options(_nvrtc_build.shared_runtime_dir(gen, tool))
        opts = [o for o in opts if o != "--pch"] + ["--pch", "--pch-messages=true", "--Ofast-compile=max"]
        logs.append(_nvrtc.compile_source(cu.read_text(), cu.name, "sm_80", opts,
                                          sorted(plan["kernels"].values())).log)
    assert "creating precompiled header" in logs[0], logs[0]
    assert "using precompiled header" in logs[1], logs[1]


def test_the_precompiled_header_is_asked_for_where_builds_follow(monkeypatch, tmp_path):
    monkeypatch.setattr(_nvrtc_build, "_builds_done", 0)
    assert "--pch" not in _nvrtc_build.options(tmp_path)      # a lone first build: no PCH to write
    with _nvrtc_build.more_builds_follow():
        assert "--pch" in _nvrtc_build.options(tmp_path)      # the tuner's first candidate
    assert "--pch" not in _nvrtc_build.options(tmp_path)
    monkeypatch.setattr(_nvrtc_build, "_builds_done", 1)
    assert "--pch" in _nvrtc_build.options(tmp_path)          # a second build in this process


def test_a_device_runs_its_own_cubin_or_one_of_an_earlier_minor_of_its_major():
    images = {"sm_80": b"80", "sm_86": b"86", "sm_90": b"90"}
    assert _launch_plan.image_for(images, "sm_86") == b"86"
    assert _launch_plan.image_for(images, "sm_89") == b"86"       # newest minor that runs there
    assert _launch_plan.image_for(images, "sm_90a") == b"90"      # TILE2CU_ARCH=sm_90 on Hopper
    assert _launch_plan.image_for({"sm_90a": b"a"}, "sm_90a") == b"a"
    assert _launch_plan.image_for({"sm_90a": b"a"}, "sm_100a") is None   # "a" code: its device only
    assert _launch_plan.image_for({"sm_86": b"86"}, "sm_80") is None     # never a later minor
    assert _launch_plan.image_for(images, "sm_100a") is None             # nor another major
