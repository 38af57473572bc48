"""The disk cache: key contents, reuse across processes, one build when two processes want the
same kernel at once, errors carrying the transpiler's diagnostics. Builds need nvcc but no GPU
(TILE2CU_ARCH names the target)."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

import kernels
import tile2cu.cutile as ct
from conftest import PACKAGE_PATH, REPO, nvcc_available
from tile2cu import _build, _kernel

needs_nvcc = pytest.mark.skipif(not nvcc_available(), reason="nvcc not found")


@pytest.fixture(autouse=True)
def nvcc_builds(monkeypatch):
    """These tests look into the nvcc build's entry (lib.so, the C entry); the NVRTC path's
    cache is test_launch_plan.py's. Child processes inherit the setting."""
    monkeypatch.setenv("TILE2CU_COMPILER", "nvcc")


def specialize(k, args):
    key, _ = _kernel._bind(k, args, None)
    return k._specialize(key, args)


def test_helper_modules_are_part_of_the_source_digest(tmp_path):
    (tmp_path / "helpers.py").write_text("def f(x):\n    return x\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "more.py").write_text("G = 1\n")
    src = tmp_path / "k.py"
    src.write_text("import math\nimport cuda.tile as ct\nfrom helpers import f\nfrom pkg.more import G\n")
    found = _build.helper_modules(src, src.read_bytes())
    assert sorted(str(p.relative_to(tmp_path)) for p in found) == ["helpers.py", "pkg/__init__.py", "pkg/more.py"]
    before, _ = _build.source_digest(src)
    (tmp_path / "pkg" / "more.py").write_text("G = 2\n")
    after, _ = _build.source_digest(src)
    assert before != after


@needs_nvcc
def test_build_then_reuse(cache_dir, monkeypatch, fake_array):
    monkeypatch.setenv("TILE2CU_ARCH", "sm_80")
    monkeypatch.setattr(_kernel._device, "_devices", None)
    args = (fake_array((1000,)), fake_array((1000,)), 0.5, 128)
    spec = specialize(ct.kernel(kernels.axpy._pyfunc), args)
    assert spec.cold_seconds is not None
    meta = json.loads((spec.folder / "meta.json").read_text())
    assert meta["signature"] == ("x=float32[?] align16 contiguous, y=float32[?] align16 "
                                 "contiguous, alpha=float32, TILE=128")
    assert meta["archs"] == ["sm_80"] and (spec.folder / "lib.so").is_file()
    cu = (spec.folder / "gen" / "kernels.cu").read_text()
    assert f"extern \"C\" int {meta['entry']}(" in cu
    # A fresh kernel object (as in a new process) finds the entry on disk.
    again = specialize(ct.kernel(kernels.axpy._pyfunc), args)
    assert again.cold_seconds is None and again.folder == spec.folder
    # Another signature is another entry.
    other = specialize(ct.kernel(kernels.axpy._pyfunc), (fake_array((9,), "<f2"), fake_array((9,), "<f2"), 0.5, 128))
    assert other.folder != spec.folder


@needs_nvcc
def test_concurrent_processes_build_once(cache_dir, tmp_path):
    script = tmp_path / "worker.py"
    script.write_text(textwrap.dedent(f"""
        import sys
        sys.path[:0] = [{str(REPO / 'tests' / 'python')!r}, *{PACKAGE_PATH!r}]
        from tile2cu import _alias; _alias.install()
        from conftest import FakeDeviceArray
        import kernels
        from tile2cu import _kernel
        args = (FakeDeviceArray((64,), "<i4"), FakeDeviceArray((64,), "<i4"), 64)
        key, _ = _kernel._bind(kernels.copy, args, None)
        spec = kernels.copy._specialize(key, args)
        print("built" if spec.cold_seconds is not None else "reused", spec.folder)
    """))
    env = dict(os.environ, TILE2CU_ARCH="sm_80", TILE2CU_CACHE_DIR=str(cache_dir))
    procs = [subprocess.Popen([sys.executable, str(script)], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(3)]
    outs = [p.communicate(timeout=600) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1] for o in outs]
    words = sorted(o[0].split()[0] for o in outs)
    folders = {o[0].split()[1] for o in outs}
    assert words == ["built", "reused", "reused"] and len(folders) == 1
    entries = [p for p in cache_dir.glob("*/*") if p.is_dir()]
    assert len(entries) == 1   # no temporary folders left behind


@needs_nvcc   # the cache key names nvcc's version, so the launcher looks for nvcc first
def test_kernel_errors_carry_diagnostics(cache_dir, monkeypatch, fake_array):
    monkeypatch.setenv("TILE2CU_ARCH", "sm_80")
    monkeypatch.setattr(_kernel._device, "_devices", None)
    args = (fake_array((64,)), fake_array((64,)), 16)
    with pytest.raises(ct.TileTypeError) as e:
        specialize(kernels.bad_shapes, args)
    assert e.value.loc.filename.endswith("kernels.py") and e.value.loc.line > 0
    assert "^" in str(e.value) and "error[TileTypeError]" in str(e.value)
    assert not list(cache_dir.glob("*/*/meta.json"))   # nothing cached for a failed build
    with pytest.raises(ct.TileTypeError) as again:     # remembered, not re-run
        specialize(kernels.bad_shapes, args)
    assert again.value is e.value


def test_unsupported_kernel_placements(cache_dir, monkeypatch, fake_array):
    monkeypatch.setenv("TILE2CU_ARCH", "sm_80")
    monkeypatch.setattr(_kernel._device, "_devices", None)
    # A kernel inside a function is compiled from a synthesized module (test_synthesize.py);
    # one exec'd from a string with no file has no source to compile.
    assert kernels.make_nested()._source()[1] is not None
    namespace = {"ct": ct}
    exec("def from_string(x):\n    pass\n", namespace)
    with pytest.raises(ct.TileUnsupportedFeatureError, match="no source file"):
        specialize(ct.kernel(namespace["from_string"]), (fake_array((4,)),))
    with pytest.raises(ct.TileSyntaxError, match="variadic"):
        specialize(ct.kernel(lambda *xs: None), ())


def test_one_line_switch_is_understood_by_the_transpiler(tmp_path):
    # A kernel file that imports tile2cu.cutile instead of cuda.tile transpiles the same way.
    src = tmp_path / "switched.py"
    src.write_text(textwrap.dedent("""
        import tile2cu.cutile as ct
        from tile2cu.cutile import Constant

        @ct.kernel
        def double(x, y, TILE: Constant[int]):
            b = ct.bid(0)
            ct.store(y, index=(b,), tile=ct.load(x, index=(b,), shape=(TILE,)) * 2)
    """))
    r = subprocess.run([str(_build.find_tool()), str(src), "--kernel", "double", "--sig",
                        "x=float32[?], y=float32[?], TILE=128", "--emit=ir"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "load x shape=(128,)" in r.stdout


@needs_nvcc
def test_lists_of_arrays_build_and_match_the_c_entry(cache_dir, monkeypatch, fake_array):
    monkeypatch.setenv("TILE2CU_ARCH", "sm_80")
    monkeypatch.setattr(_kernel._device, "_devices", None)
    xs = [fake_array((100,)), fake_array((7,))]
    ys = [fake_array((100,)), fake_array((7,))]
    spec = specialize(ct.kernel(kernels.grouped_scale._pyfunc), (xs, ys, 2.0, 64))
    meta = json.loads((spec.folder / "meta.json").read_text())
    assert meta["signature"] == ("xs=list[float32[?] align16 contiguous], ys=list[float32[?] "
                                 "align16 contiguous], alpha=float32, TILE=64")
    cu = (spec.folder / "gen" / "kernels.cu").read_text()
    # The C entry the launcher calls: per list its word table and item count.
    assert (f"extern \"C\" int {meta['entry']}(\n    void* stream, unsigned grid_x, unsigned grid_y, "
            "unsigned grid_z,\n    const int64_t* xs_words, int32_t xs_count,\n"
            "    const int64_t* ys_words, int32_t ys_count,\n    float alpha)") in cu
