"""What real cuTile modules import and bind, resolved as Python resolves it, on the transpiler's
side (no nvcc needed): `k2 = k.replace_hints(...)` at module level, cuTile's private modules in
kernel files, absolute imports from a package's root (cuTile's test/kernels/fused_moe.py)."""

import textwrap
from pathlib import Path

import pytest

import kernels
from conftest import REPO
from tile2cu import _build

UPSTREAM_TESTS = REPO.parent / "shared" / "upstream" / "cutile-python" / "test"


def transpile(source: Path, kernel: str, signature: str, out: Path) -> str:
    _build._transpile(_build.find_tool(), source, kernel, f"{kernel}_t", signature, out)
    return (out / (source.stem + ".cu")).read_text()


def test_replace_hints_bound_at_module_level(tmp_path):
    assert kernels.axpy4._name_in_module() == "axpy4"
    assert kernels.axpy4._options["occupancy"] == 4 and kernels.axpy._options["occupancy"] == 2
    sig = "x=float32[?], y=float32[?], alpha=float32, TILE=256"
    cu = transpile(Path(kernels.__file__), "axpy4", sig, tmp_path / "a")
    assert "__launch_bounds__(kThreads, 4) axpy4(" in cu
    cu = transpile(Path(kernels.__file__), "axpy", sig, tmp_path / "b")
    assert "__launch_bounds__(kThreads, 2) axpy(" in cu


def test_cutile_private_modules_in_kernel_files(tmp_path):
    src = tmp_path / "k.py"
    src.write_text(textwrap.dedent("""\
        import cuda.tile as ct
        from cuda.tile._numeric_semantics import RoundingMode as RMd
        from cuda.tile._memory_model import MemoryOrder

        @ct.kernel
        def k(x, y):
            t = ct.load(x, index=(0,), shape=(16,))
            ct.store(y, index=(0,), tile=ct.truediv(t, 3.0, rounding_mode=RMd.APPROX))
        """))
    cu = transpile(src, "k", "x=float32[?], y=float32[?]", tmp_path / "gen")
    assert "__global__" in cu


def _package(tmp_path):
    """root/kernels/{__init__,util,k}.py, k doing `from kernels.util import twice` as cuTile's
    test/kernels/fused_moe.py does."""
    pkg = tmp_path / "root" / "kernels"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "util.py").write_text("import cuda.tile as ct\n\n\n@ct.function\ndef twice(t):\n"
                                 "    return t * 2\n")
    (pkg / "k.py").write_text(textwrap.dedent("""\
        import cuda.tile as ct
        from kernels.util import twice

        @ct.kernel
        def k(x, y):
            t = ct.load(x, index=(0,), shape=(16,))
            ct.store(y, index=(0,), tile=twice(t))
        """))
    return pkg


def test_absolute_import_from_the_package_root(tmp_path):
    pkg = _package(tmp_path)
    cu = transpile(pkg / "k.py", "k", "x=float32[?], y=float32[?]", tmp_path / "gen")
    assert "t * 2.0f" in cu     # the helper from kernels/util.py, inlined
    found = _build.helper_modules(pkg / "k.py", (pkg / "k.py").read_bytes())
    assert [p.name for p in found] == ["__init__.py", "util.py"]   # both in the cache key


@pytest.mark.skipif(not (UPSTREAM_TESTS / "kernels" / "fused_moe.py").is_file(),
                    reason="cuTile's sources are not beside the checkout")
def test_cutile_fused_moe_imports_swizzle_2d(tmp_path):
    src = UPSTREAM_TESTS / "kernels" / "fused_moe.py"
    sig = ("A=float16[?, ?], B=float16[?, ?, ?], C=float16[?, ?], topk_weights=float32[?], "
           "sorted_token_ids=int32[?], sorted_expert_ids=int32[?], num_token_replicas=int32, "
           "mul_routed_weight=True, TILE_M=64, TILE_N=64, TILE_K=32")
    cu = transpile(src, "fused_moe_kernel", sig, tmp_path / "gen")
    assert "// num_bid_in_group = GROUP_SIZE_M * num_bid_n" in cu   # matmul.py's helper, inlined
    assert (UPSTREAM_TESTS / "kernels" / "matmul.py").resolve() in _build.helper_modules(
        src, src.read_bytes())


def test_replace_hints_bound_under_main_is_synthesized(tmp_path):
    # cuTile's samples/AttentionFMHA.py: `tuned_kernel = fmha_kernel.replace_hints(...)` inside
    # `if __name__ == "__main__":`, a name the transpiler does not see at the top level: the
    # kernel is built from a synthesized module, with the replaced hints.
    import importlib.util
    src = tmp_path / "main_hints.py"
    src.write_text(textwrap.dedent("""\
        import cuda.tile as ct

        @ct.kernel(occupancy=2)
        def k(x, TILE: ct.Constant[int]):
            t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
            ct.store(x, index=(ct.bid(0),), tile=t * 2)

        if __name__ == "__main__":
            tuned = k.replace_hints(occupancy=4)
        """))
    spec = importlib.util.spec_from_file_location("__main__", src)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tuned = module.tuned
    path, synthesized = tuned._source()
    assert synthesized is not None and tuned._name_in_module() == "k"
    cu = transpile(path, "k", "x=float32[?], TILE=256", tmp_path / "gen")
    assert "__launch_bounds__(kThreads, 4) k(" in cu
    assert module.k._source()[1] is None   # the decorated kernel itself still uses its file
    # Hints that make the same code (only num_ctas, which tile2cu ignores) reuse the base's build.
    same = module.k.replace_hints(num_ctas=2)
    assert same._source() == module.k._source() and same._name_in_module() == "k"
