"""Real cuTile's verdicts, kept between runs of run_diff.py inside the cuTile environment.

cuTile is pinned (requirements.txt), so its verdict on a kernel is a function of what it is
given: the kernel file, the local modules it imports, the signature, the kernel name, the
architecture, and the code that turns a tile2cu signature into cuTile's (python/tile2cu_sig and
run_diff.py itself). The key hashes all of those; the file lives inside the virtual environment,
which cutile_env.py recreates when the pins change. Only tile2cu's side is then rerun for an
unchanged case. Time-outs are never kept (they depend on the machine's load; run_diff.py also
leaves out any verdict reached at its time limit).
"""
from __future__ import annotations

import ast
import hashlib
import json
import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FILE_NAME = "tile2cu-cutile-verdicts.json"
NOT_KEPT = ("Timeout",)


def _local_imports(path: Path, seen: set) -> None:
    """Adds path and the .py files of its folder it imports (transitively) to seen."""
    if path in seen or not path.is_file():
        return
    seen.add(path)
    try:
        tree = ast.parse(path.read_bytes())
    except (SyntaxError, ValueError):
        return
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module]
        for name in names:
            _local_imports(path.parent / (name.split(".")[0] + ".py"), seen)


def _code_digest() -> str:
    """The converting and comparing code: a change to it makes every kept verdict stale."""
    h = hashlib.sha256()
    files = sorted((ROOT / "python" / "tile2cu_sig").glob("*.py")) + \
        [HERE / "run_diff.py", HERE / "requirements.txt", Path(__file__).resolve()]
    for f in files:
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


class VerdictCache:
    def __init__(self, venv: Path):
        self.path = Path(venv) / FILE_NAME
        self.code = _code_digest()
        try:
            self.entries = json.loads(self.path.read_text())
        except (OSError, ValueError):
            self.entries = {}
        self.hits = 0
        self.used = set()

    def key(self, kernel_file: Path, sig_text: str, kernel_name, arch: str) -> str:
        files = set()
        _local_imports(Path(kernel_file).resolve(), files)
        h = hashlib.sha256(self.code.encode())
        for f in sorted(files):
            h.update(str(f.relative_to(ROOT) if f.is_relative_to(ROOT) else f).encode() + b"\0")
            h.update(f.read_bytes() + b"\0")
        h.update(f"{sig_text}\0{kernel_name}\0{arch}".encode())
        return h.hexdigest()

    def get(self, key: str):
        self.used.add(key)
        hit = self.entries.get(key)
        if hit is not None:
            self.hits += 1
            return tuple(hit)
        return None

    def put(self, key: str, verdict) -> None:
        if verdict[1] not in NOT_KEPT:
            self.entries[key] = list(verdict)

    def save(self, prune: bool = False) -> None:
        """prune (after a run over every case): forget the verdicts no case asked for."""
        if prune:
            self.entries = {k: v for k, v in self.entries.items() if k in self.used}
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.entries, sort_keys=True))
        os.replace(tmp, self.path)
