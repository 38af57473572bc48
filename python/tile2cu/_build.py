"""From a kernel and a signature to a loaded specialization: transpile with the tile2cu tool,
build for the GPUs present, keep the result in a disk cache. The device code is compiled in
process by NVRTC and launched from the transpiler's launch plan where it can be
(_nvrtc_build: no host compiler); otherwise, or with TILE2CU_COMPILER=nvcc, nvcc builds a shared
library with the generated C entry, as described below.

Cache entries live in `$TILE2CU_CACHE_DIR` (default `~/.cache/tile2cu`), one folder per key:
the key hashes the kernel's source file and the helper modules it imports from beside it, the
signature, the target architectures, the tool binary's contents and the nvcc in use. A process
builds an entry in a private temporary folder and renames it into place, holding a lock file so
that two processes wanting the same entry build it once; a reader never sees half an entry.
"""

from __future__ import annotations

import ast
import contextlib
import ctypes
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from . import _errors, _nvrtc_build

CACHE_FORMAT = 1
_PACKAGE_DIR = Path(__file__).resolve().parent


# ---- tools -------------------------------------------------------------------------------------

def find_tool(search_path: bool = True) -> Path:
    """The tile2cu binary: $TILE2CU_BIN, one shipped in the package (bin/, from the wheel), the
    build folder of the checkout the package sits in, or PATH (not for the `tile2cu` command
    itself, which PATH would find)."""
    env = os.environ.get("TILE2CU_BIN")
    if env:
        if not os.access(env, os.X_OK):
            raise FileNotFoundError(f"TILE2CU_BIN={env} is not an executable file")
        return Path(env)
    for candidate in (_PACKAGE_DIR / "bin" / "tile2cu", _PACKAGE_DIR.parents[1] / "build" / "tile2cu"):
        if os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which("tile2cu") if search_path else None
    if found:
        return Path(found)
    raise FileNotFoundError("cannot find the tile2cu binary: set TILE2CU_BIN, or install the "
                            "package with it (pip install <tile2cu checkout>), or build it "
                            "(scripts/build.sh)")


def find_runtime() -> Path:
    """The folder to pass to `nvcc -I` for the runtime headers (tile2cu/*.cuh): the package's
    include/ (from the wheel) or the checkout's runtime/. Builds through the launcher do not need
    it (the binary vendors the headers it uses); hand-written nvcc commands do."""
    for candidate in (_PACKAGE_DIR / "include", _PACKAGE_DIR.parents[1] / "runtime"):
        if (candidate / "tile2cu" / "tile2cu.cuh").is_file():
            return candidate
    raise FileNotFoundError("cannot find the runtime headers (tile2cu/tile2cu.cuh): install the "
                            "package (pip install <tile2cu checkout>) or use a checkout's runtime/")


def find_nvcc() -> Path:
    env = os.environ.get("TILE2CU_NVCC")
    if env:
        return Path(env)
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH")):
        if home and os.access(Path(home) / "bin" / "nvcc", os.X_OK):
            return Path(home) / "bin" / "nvcc"
    found = shutil.which("nvcc")
    if found:
        return Path(found)
    if os.access("/usr/local/cuda/bin/nvcc", os.X_OK):
        return Path("/usr/local/cuda/bin/nvcc")
    raise FileNotFoundError("cannot find nvcc: set TILE2CU_NVCC or CUDA_HOME, or put it on PATH")


_identity_memo: dict[tuple, str] = {}


def _tool_identity(path: Path, how: str) -> str:
    """A tool's version, asked once per process (per path, size and mtime): the tile2cu
    binary's content hash (it is rebuilt often), nvcc's `--version` text. The hash of a ~100 MB
    binary takes a quarter second, a noticeable part of a first launch through NVRTC, so it is
    also kept on disk, per path, inode, size and mtime (_content_hash)."""
    st = path.stat()
    memo_key = (str(path), st.st_size, st.st_mtime_ns, how)
    if memo_key not in _identity_memo:
        if how == "content":
            _identity_memo[memo_key] = _content_hash(path, st)
        else:
            r = subprocess.run([str(path), "--version"], capture_output=True, text=True)
            _identity_memo[memo_key] = r.stdout.strip()
    return _identity_memo[memo_key]


def _content_hash(path: Path, st: os.stat_result) -> str:
    """sha256 of the file, remembered in the cache under a name made of what changes when the
    file is replaced or rewritten (its path, device, inode, size, mtime and ctime)."""
    stamp = f"{path.resolve()}\0{st.st_dev}\0{st.st_ino}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ctime_ns}"
    memo = cache_root() / "tool-hashes" / hashlib.sha256(stamp.encode()).hexdigest()[:32]
    try:
        text = memo.read_text()
        if len(text) == 64:
            return text
    except OSError:
        pass
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=memo.parent)
        with os.fdopen(fd, "w") as f:
            f.write(digest)
        os.replace(tmp, memo)   # atomic: a reader sees the whole hash or none
    except OSError:
        pass   # a read-only cache only costs the hash next time
    return digest


def cache_root() -> Path:
    env = os.environ.get("TILE2CU_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tile2cu"


# ---- what the kernel's source is ---------------------------------------------------------------

def absolute_import_roots(source_path: Path) -> list[Path]:
    """Where `import a.b` from this file finds a.b, as the transpiler looks (src/driver): the
    file's folder, then, for a file inside a package, the folder holding the topmost package
    (`test/kernels/fused_moe.py` with `test/kernels/__init__.py`: `test/`, where Python found
    `kernels`)."""
    roots = [source_path.parent]
    top = source_path.parent
    while (top / "__init__.py").is_file():
        top = top.parent
    if top != source_path.parent:
        roots.append(top)
    return roots


def helper_modules(source_path: Path, source: bytes) -> list[Path]:
    """Python files the kernel's file imports from beside it (`import kernel_utils`,
    `from .gelu import gelu_tanh`, `from kernels.matmul import swizzle_2d` inside the package
    `kernels`): helpers in them are inlined, so they are part of the key. Library imports
    (cuda.tile, torch, math, ...) are not."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [(0, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            names.append((node.level, mod))
            names += [(node.level, f"{mod}.{a.name}" if mod else a.name) for a in node.names]
    found = []
    for level, dotted in names:
        if level:
            folders = [source_path.parents[level - 1]] if level <= len(source_path.parents) else []
        else:
            folders = absolute_import_roots(source_path)
        parts = dotted.split(".") if dotted else []
        for folder in folders:
            for k in range(1, len(parts) + 1):   # importing a.b.c runs a/__init__.py and a/b/...
                rel = Path(*parts[:k])
                for candidate in (folder / rel.with_suffix(".py"), folder / rel / "__init__.py"):
                    if candidate.is_file() and candidate.resolve() != source_path.resolve():
                        found.append(candidate.resolve())
    return sorted(set(found))


def source_digest(source_path: Path) -> tuple[str, bytes]:
    source = source_path.read_bytes()
    h = hashlib.sha256(source)
    for helper in helper_modules(source_path, source):
        h.update(b"\0" + str(helper.name).encode() + b"\0" + helper.read_bytes())
    return h.hexdigest(), source


def write_synthesized(synthesized) -> Path:
    """The file holding a synthesized kernel module (see _synthesize), written once: in the
    cache, in a folder named by its text's hash, under the kernel file's stem (the generated
    .cu takes that name). Two closures capturing different values are two texts, two files,
    two cache keys."""
    folder = cache_root() / "synthesized" / synthesized.digest[:32]
    path = folder / f"{synthesized.stem}.py"
    if not path.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{synthesized.stem}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "w") as f:
            f.write(synthesized.text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)   # atomic: another process writing the same text is harmless
    return path


# ---- building ----------------------------------------------------------------------------------

class Built:
    """A loaded specialization: its entry point (the C entry of the nvcc build, or the NVRTC
    build's launcher from its plan, called alike), its cache folder and which compiler made it."""

    def __init__(self, entry, folder: Path, cold_seconds: float | None, compiler: str = "nvcc",
                 fallback_reason: str | None = None):
        self.entry = entry
        self.folder = folder
        self.cold_seconds = cold_seconds   # None when the disk cache had it
        self.compiler = compiler
        self.fallback_reason = fallback_reason   # why nvcc built it where NVRTC was asked


def build(source_path: Path, kernel_name: str, spec_name: str, signature: str,
          archs: tuple[str, ...], argtypes: list, synthesized=None) -> Built:
    """Returns the loaded entry `tile2cu_<spec_name>` for `signature`, building it if no cache
    entry has it: with NVRTC where it can (_build_nvrtc), else with nvcc. `synthesized` (a
    _synthesize.Synthesized) when `source_path` is a module written for the kernel: its
    diagnostics are mapped back to the user's lines. Raises the cuTile error class the transpiler
    names for errors in the kernel, TileCompilerExecutionError when the compiler fails,
    TileCompilerTimeoutError past the time limit."""
    tool = find_tool()
    digest, _ = source_digest(source_path)
    compiler, reason = _nvrtc_build.choice()
    if compiler == "nvrtc":
        built = _nvrtc_build.build(tool, digest, source_path, kernel_name, spec_name, signature,
                                   archs, synthesized)
        if isinstance(built, Built):
            return built
        reason = built   # what the NVRTC path cannot do for this specialization
    nvcc = find_nvcc()
    key_text = json.dumps([CACHE_FORMAT, digest, kernel_name, spec_name, signature, list(archs),
                           _tool_identity(tool, "content"), _tool_identity(nvcc, "version")])
    key = hashlib.sha256(key_text.encode()).hexdigest()[:32]
    root = cache_root()
    folder = root / key[:2] / key
    cold = None
    if not (folder / "meta.json").is_file():
        # Builds of other keys go on beside this one (the tuner builds its configurations at
        # once); the same key, from any thread or process, waits on the key's lock file.
        cold = _build_locked(root, folder, key, tool, nvcc, source_path, kernel_name, spec_name,
                             signature, archs, synthesized, reason)
    lib = ctypes.CDLL(str(folder / "lib.so"), mode=ctypes.RTLD_LOCAL)
    entry = getattr(lib, f"tile2cu_{spec_name}")
    entry.argtypes = argtypes
    entry.restype = ctypes.c_int
    return Built(entry, folder, cold, "nvcc", reason)


@contextlib.contextmanager
def locked_entry(root: Path, folder: Path, key: str):
    """Holds the key's lock file; yields a private temporary folder to build the entry in, or
    None when another process finished the entry meanwhile. On leaving, a folder holding
    meta.json is renamed into place (atomic: readers see the whole entry or none)."""
    (root / "locks").mkdir(parents=True, exist_ok=True)
    with open(root / "locks" / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)   # another process building the same entry: wait for it
        if (folder / "meta.json").is_file():
            yield None
            return
        folder.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{key}.", dir=folder.parent))
        os.chmod(tmp, 0o755)   # mkdtemp makes it private; a cache entry is readable like a file
        try:
            yield tmp
            if (tmp / "meta.json").is_file():
                try:
                    os.rename(tmp, folder)
                except OSError:
                    if not (folder / "meta.json").is_file():
                        raise
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def _build_locked(root, folder, key, tool, nvcc, source_path, kernel_name, spec_name, signature,
                  archs, synthesized, fallback_reason=None):
    with locked_entry(root, folder, key) as tmp:
        if tmp is None:
            return None
        start = time.perf_counter()
        _transpile(tool, source_path, kernel_name, spec_name, signature, tmp / "gen", synthesized)
        transpiled = time.perf_counter()
        _compile(nvcc, tmp / "gen" / (source_path.stem + ".cu"), archs, tmp / "lib.so")
        compiled = time.perf_counter()
        meta = {"kernel": kernel_name, "signature": signature, "spec": spec_name,
                "entry": f"tile2cu_{spec_name}", "source": str(source_path),
                "archs": list(archs), "tool": str(tool), "compiler": "nvcc", "nvcc": str(nvcc),
                "seconds": round(compiled - start, 3),
                "transpile_seconds": round(transpiled - start, 3),
                "nvcc_seconds": round(compiled - transpiled, 3)}
        if fallback_reason:
            meta["nvrtc_fallback"] = fallback_reason
        (tmp / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
        return time.perf_counter() - start


def _run(cmd, timeout):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise _errors.TileCompilerTimeoutError(
            f"{Path(cmd[0]).name} did not finish in {timeout} s (ct.compiler_timeout or "
            "TILE2CU_COMPILE_TIMEOUT sets the limit)", " ".join(cmd[1:])) from None


_timeout_in_block: float | None = None   # set by `with ct.compiler_timeout(sec):`


def _timeout() -> float:
    if _timeout_in_block is not None:
        return _timeout_in_block
    return float(os.environ.get("TILE2CU_COMPILE_TIMEOUT", "600"))


@contextlib.contextmanager
def compiler_timeout(timeout_sec: float):
    """`with ct.compiler_timeout(sec):` (or `@ct.compiler_timeout(sec)` on a function): the
    transpiler and nvcc may each run `sec` seconds per build inside the block; the limit before
    it comes back when the block ends. As in cuTile, a process-wide setting (not per thread)."""
    global _timeout_in_block
    previous = _timeout_in_block
    _timeout_in_block = float(timeout_sec)
    try:
        yield
    finally:
        _timeout_in_block = previous


def _transpile(tool, source_path, kernel_name, spec_name, signature, out_dir, synthesized=None):
    transpile_specs(tool, source_path, kernel_name, [(spec_name, signature)], out_dir, synthesized)


def transpile_specs(tool, source_path, kernel_name, specs, out_dir, synthesized=None):
    """Writes out_dir/<source stem>.cu (and its .cuh and runtime headers) holding one
    specialization per (spec name, signature text) of `specs`."""
    cmd = [str(tool), str(source_path), "--kernel", kernel_name, "--vendor", str(out_dir)]
    for spec_name, signature in specs:
        cmd += ["--sig", f"{spec_name} = {kernel_name}({signature})"]
    r = _run(cmd, _timeout())
    if r.returncode != 0:
        text = r.stderr
        if synthesized is None:
            raise _errors.from_diagnostics(text, r.returncode)
        text = synthesized.remap(text, str(source_path))
        raise synthesized.error_of(_errors.from_diagnostics(text, r.returncode))


def _compile(nvcc, cu, archs, out):
    cmd = [str(nvcc), "-std=c++17", "-O3", "-shared", "-Xcompiler", "-fPIC", "-I", str(cu.parent)]
    for arch in archs:
        cmd += ["-gencode", f"arch=compute_{arch[3:]},code={arch}"]
    cmd += ["-o", str(out), str(cu)]
    r = _run(cmd, _timeout())
    if r.returncode != 0:
        text = f"nvcc failed ({r.returncode}) on {cu.name}:\n{r.stdout}{r.stderr}"
        raise _errors.TileCompilerExecutionError(r.returncode, "nvcc failed", None,
                                                 " ".join(cmd[1:]), diagnostics=text)


def compile_device_code(nvcc, cu, output_format, gpu_code, out):
    """Only the device code of a generated .cu: a cubin for gpu_code (sm_XX) or its PTX."""
    if output_format == "cubin":
        target = ["-cubin", f"-arch={gpu_code}"]
    else:
        target = ["-ptx", f"-arch=compute_{gpu_code[3:]}"]
    cmd = [str(nvcc), "-std=c++17", "-O3", *target, "-I", str(cu.parent), "-o", str(out), str(cu)]
    r = _run(cmd, _timeout())
    if r.returncode != 0:
        text = f"nvcc failed ({r.returncode}) on {cu.name}:\n{r.stdout}{r.stderr}"
        raise _errors.TileCompilerExecutionError(r.returncode, "nvcc failed", None,
                                                 " ".join(cmd[1:]), diagnostics=text)


def clear_cache() -> None:
    shutil.rmtree(cache_root(), ignore_errors=True)

