"""The fast first launch (issue 29): a specialization's device code compiled in process by NVRTC
to a cubin, launched through the CUDA driver from the launch plan the transpiler writes beside
the .cu (_launch_plan). No host compiler runs. The .cu is the one nvcc builds (its host half sits
behind `#if !defined(__CUDACC_RTC__)`), so both compilers build the same kernels.

`TILE2CU_COMPILER` chooses: `nvrtc` or unset (NVRTC where libnvrtc and the toolkit's headers are
found, else nvcc), `nvcc` (always nvcc). TMA tensor maps are encoded here too
(_tensor_maps). A specialization whose plan needs the generated host launcher (what the plan
cannot describe) is built by nvcc; the NVRTC cache entry records why, so later processes go
there without transpiling again.

The cache entry (same folder scheme and locking as the nvcc one, _build): `meta.json`
(compiler, lowered kernel names, seconds), `<arch>.cubin` per architecture, `gen/` with the .cu
and `<stem>.plan.json`.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import threading
import time
from pathlib import Path

from . import _build, _device, _driver_api, _errors, _launch_plan, _nvrtc

_COMPILERS = ("auto", "nvrtc", "nvcc")


def choice() -> tuple[str, str | None]:
    """("nvrtc", None), or ("nvcc", why not NVRTC; None when nvcc was asked for)."""
    asked = os.environ.get("TILE2CU_COMPILER", "auto").strip().lower() or "auto"
    if asked not in _COMPILERS:
        raise ValueError(f"TILE2CU_COMPILER={asked}: expected one of {', '.join(_COMPILERS)}")
    if asked == "nvcc":
        return "nvcc", None
    try:
        _nvrtc.load()
    except _nvrtc.NvrtcUnavailable as e:
        return "nvcc", str(e)
    if not include_dirs():
        return "nvcc", "the CUDA toolkit's headers (cuda_fp16.h, cccl/cuda/std) were not found for NVRTC"
    return "nvrtc", None


def cuda_home() -> Path | None:
    """The toolkit whose headers NVRTC compiles against: CUDA_HOME or CUDA_PATH, the one around
    the nvcc the launcher would use, or /usr/local/cuda."""
    homes = [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH")]
    try:
        homes.append(str(_build.find_nvcc().resolve().parents[1]))
    except (FileNotFoundError, IndexError):
        pass
    homes.append("/usr/local/cuda")
    for home in homes:
        if home and (Path(home) / "include" / "cuda_fp16.h").is_file():
            return Path(home)
    return None


_includes_memo: list[Path] | None = None


def include_dirs() -> list[Path]:
    """-I folders for NVRTC: the toolkit's include/ and its cccl/ (libcu++, CUB); empty when
    they are not there."""
    global _includes_memo
    if _includes_memo is None:
        home = cuda_home()
        dirs = _nvrtc.include_dirs(home) if home else []
        has_libcu = any((d / "cuda" / "std" / "cstdint").is_file() for d in dirs)
        _includes_memo = dirs if has_libcu else []
    return _includes_memo


def options(runtime_dir: Path) -> list[str]:
    """NVRTC's options: the language nvcc builds the file in, the folder holding the runtime's
    headers (tile2cu/*.cuh: all a generated .cu includes under NVRTC), the toolkit's headers.
    -default-device: NVRTC takes the generic lambdas in kernels and unannotated constexpr helpers
    for host code, where nvcc makes them device code (docs/python-launcher.md, "NVRTC builds the
    generated file"). --pch: NVRTC keeps the parsed runtime headers in memory (a precompiled
    header) and the next specialization of this process that includes the same headers with the
    same options skips that parse, which is most of NVRTC's front end; the kernels' code is the
    same with or without it. The PCH does not outlive the process, and writing it costs a lone
    elementwise build about 0.2 s, so it is asked for only where builds follow (_pch_pays)."""
    pch = ["--pch"] if _pch_pays() else []
    return ["-std=c++17", "-default-device", *pch, f"-I{runtime_dir}",
            *[f"-I{d}" for d in include_dirs()]]


_builds_done = 0
_more_builds_follow = threading.local()


def _pch_pays() -> bool:
    """Whether this build should make or use NVRTC's in-memory precompiled header: once this
    process has built one specialization (a second is likely: another signature, another
    kernel of the program), or when the caller says more follow (the tuner's first candidate).
    TILE2CU_NVRTC_PCH=0 turns it off (to measure without it)."""
    if os.environ.get("TILE2CU_NVRTC_PCH", "1").strip() == "0":
        return False
    return _builds_done > 0 or getattr(_more_builds_follow, "value", False)


class more_builds_follow:
    """`with more_builds_follow():` around a build that others will follow in this process (the
    tuner builds its first candidate so, then the rest at once, which reuse its header parse)."""

    def __enter__(self):
        _more_builds_follow.value = True

    def __exit__(self, *exc):
        _more_builds_follow.value = False


def shared_runtime_dir(gen_dir: Path, tool: Path) -> Path:
    """One folder of runtime headers per tile2cu binary, shared by its NVRTC builds, filled from
    each build's vendored copy (gen/tile2cu, the headers that kernel includes). NVRTC reuses its
    precompiled header only when the options match, and a per-entry -I<gen> never does. The
    binary's content hash names the folder, so its files are the binary's own; each is copied in
    under a private name and renamed, so concurrent builds never see half a file."""
    root = _build.cache_root() / "nvrtc-runtime" / _build._tool_identity(tool, "content")[:32]
    vendored = gen_dir / "tile2cu"
    for src in vendored.rglob("*"):
        dst = root / "tile2cu" / src.relative_to(vendored)
        if src.is_file() and not dst.is_file():
            dst.parent.mkdir(parents=True, exist_ok=True)
            tmp = dst.with_name(f".{dst.name}.{os.getpid()}.{threading.get_ident()}")
            shutil.copyfile(src, tmp)
            os.replace(tmp, dst)
    return root


def build(tool: Path, digest: str, source_path: Path, kernel_name: str, spec_name: str,
          signature: str, archs: tuple[str, ...], synthesized=None):
    """The loaded specialization (a _build.Built), or the reason NVRTC cannot launch it (a str):
    the caller then builds it with nvcc."""
    version = ".".join(map(str, _nvrtc.version()))
    key_text = json.dumps([_build.CACHE_FORMAT, "nvrtc", version, digest, kernel_name, spec_name,
                           signature, list(archs), _build._tool_identity(tool, "content"),
                           [str(d) for d in include_dirs()], _launch_plan.FORMAT])
    key = hashlib.sha256(key_text.encode()).hexdigest()[:32]
    root = _build.cache_root()
    folder = root / key[:2] / key
    cold = None
    if not (folder / "meta.json").is_file():
        with _build.locked_entry(root, folder, key) as tmp:
            if tmp is not None:
                start = time.perf_counter()
                _build_entry(tmp, tool, source_path, kernel_name, spec_name, signature, archs,
                             synthesized, version)
                cold = time.perf_counter() - start
    meta = json.loads((folder / "meta.json").read_text())
    if meta.get("fallback"):
        return meta["fallback"]
    return _build.Built(load_entry(folder), folder, cold, "nvrtc")


def load_entry(folder: Path):
    """The launch entry of an NVRTC cache entry (also what the tuner's time-limited worker
    process launches with, tune/_ipc_worker.py)."""
    meta = json.loads((folder / "meta.json").read_text())
    plan_file = json.loads((folder / "gen" / meta["plan"]).read_text())
    plan = _launch_plan.specialization(plan_file, meta["spec"])
    images = {arch: (folder / f"{arch}.cubin").read_bytes() for arch in meta["archs"]}
    return _launch_plan.make_entry(plan, images, meta["lowered"], _arch_of_context)


def _arch_of_context() -> str:
    return _device._arch_name(*_driver_api.current_compute_capability())


def _build_entry(tmp: Path, tool, source_path, kernel_name, spec_name, signature, archs,
                 synthesized, version):
    start = time.perf_counter()
    gen = tmp / "gen"
    _build._transpile(tool, source_path, kernel_name, spec_name, signature, gen, synthesized)
    transpiled = time.perf_counter()
    plan = _launch_plan.specialization(
        json.loads((gen / f"{source_path.stem}.plan.json").read_text()), spec_name)
    meta = {"kernel": kernel_name, "signature": signature, "spec": spec_name,
            "source": str(source_path), "archs": list(archs), "tool": str(tool),
            "compiler": "nvrtc", "nvrtc": version, "plan": f"{source_path.stem}.plan.json"}
    reason = plan.get("host_launcher_only")
    if not reason:
        try:
            _launch_plan.parameter_layout(plan["kernel_params"])
        except _launch_plan.PlanError as e:
            reason = str(e)
    if reason:
        meta["fallback"] = f"the NVRTC launcher cannot launch it yet: {reason}"
        (tmp / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
        return
    cu = gen / f"{source_path.stem}.cu"
    exprs = sorted(set(plan["kernels"].values()))
    opts = options(shared_runtime_dir(gen, tool))
    compiled = _compile_all(cu.read_text(), cu.name, archs, opts, exprs)
    done = time.perf_counter()
    for arch, c in compiled.items():
        (tmp / f"{arch}.cubin").write_bytes(c.image)
    meta["lowered"] = next(iter(compiled.values())).lowered
    meta.update(seconds=round(done - start, 3), transpile_seconds=round(transpiled - start, 3),
                nvrtc_seconds=round(done - transpiled, 3),
                nvrtc_seconds_by_arch={a: round(c.seconds, 3) for a, c in compiled.items()},
                pch="--pch" in opts)
    (tmp / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    global _builds_done
    _builds_done += 1


def _compile_all(text: str, name: str, archs, opts: list[str], exprs: list[str]) -> dict:
    """One cubin per architecture, compiled at once in threads (NVRTC holds no lock of Python's),
    within the compile time limit (ct.compiler_timeout); NVRTC's refusals as
    TileCompilerExecutionError with its log."""
    results, errors = {}, []

    def one(arch):
        try:
            results[arch] = _nvrtc.compile_source(text, name, arch, opts, exprs)
        except BaseException as e:  # noqa: BLE001 - handed to the waiting thread
            errors.append(e)

    threads = [threading.Thread(target=one, args=(a,), daemon=True) for a in archs]
    for t in threads:
        t.start()
    deadline = time.monotonic() + _build._timeout()
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
        if t.is_alive():
            # NVRTC cannot be stopped: its thread finishes on its own and its result is dropped.
            raise _errors.TileCompilerTimeoutError(
                f"NVRTC did not finish in {_build._timeout()} s (ct.compiler_timeout or "
                "TILE2CU_COMPILE_TIMEOUT sets the limit)", name)
    for e in errors:
        if isinstance(e, _nvrtc.NvrtcError):
            text = f"NVRTC failed on {name}:\n{e}"
            raise _errors.TileCompilerExecutionError(1, "NVRTC failed", None, " ".join(opts),
                                                     diagnostics=text) from None
        raise e
    return results
