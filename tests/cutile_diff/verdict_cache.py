"""Real cuTile's verdicts, recorded so that run_diff.py need not run cuTile on unchanged cases.

cuTile is pinned (requirements.txt), so its verdict on a kernel is a function of what it is
given: the kernel file, the local modules it imports, the signature, the kernel name, the
architecture, and the code that turns a tile2cu signature into cuTile's and calls it
(python/tile2cu_sig, cutile_compile.py). The key hashes all of those. Two stores:

- tests/cutile_diff/cutile_verdicts.json, committed like golden files: read by every run, written
  only by `run_diff.py TILE2CU --update-verdicts` (a full run; entries no case asks for are
  dropped). A fresh clone (CI) runs cuTile only on the cases whose key it lacks.
- a file inside the cuTile venv, which the test itself may write: what this build folder ran,
  so a local rerun does not run cuTile again on a case the committed file lacks.

A verdict reached at run_diff.py's time limit depends on the machine's load, so the venv's file
never keeps one. The committed file does, as "Timeout": cuTile did not finish in the limit on the
machine that recorded it. Without that, the few cases cuTile never finishes (bad inputs that
tile2cu refuses at its budgets) would cost the limit each in every CI run; `--update-verdicts`
on a faster machine, or after a key change, runs them again.
"""
from __future__ import annotations

import ast
import hashlib
import json
import os
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
REFERENCE = HERE / "cutile_verdicts.json"
VENV_FILE_NAME = "tile2cu-cutile-verdicts.json"
# Part of every key: raise it when what the key covers changes, so old records stop matching.
KEY_FORMAT = "2"
NOT_KEPT = ("Timeout",)
# A run killed part way (ctest's time limit) keeps what it ran up to this long before.
SAVE_EVERY_S = 60


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
    """The code that decides cuTile's verdict: a change to it makes every record stale."""
    h = hashlib.sha256(f"key format {KEY_FORMAT}\0".encode())
    files = sorted((ROOT / "python" / "tile2cu_sig").glob("*.py")) + \
        [HERE / "cutile_compile.py", HERE / "requirements.txt"]
    for f in files:
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def _readable(verdict, timeouts_too: bool = False) -> bool:
    return isinstance(verdict, list) and len(verdict) == 4 and (timeouts_too or verdict[1] not in NOT_KEPT)


def read_reference(path: Path = REFERENCE) -> dict:
    """{key: (case, verdict)} from the committed file; {} where there is none."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return {e["key"]: (e["case"], e["verdict"]) for e in data.get("verdicts", [])
            if isinstance(e, dict) and _readable(e.get("verdict"), timeouts_too=True)}


def write_reference(records: dict, path: Path = REFERENCE) -> None:
    """records {key: (case, verdict)}: one entry a line, sorted by case, so a diff names cases."""
    lines = [json.dumps({"case": case, "key": key, "verdict": verdict}, sort_keys=True)
             for key, (case, verdict) in sorted(records.items(), key=lambda kv: (kv[1][0], kv[0]))]
    text = ('{\n  "about": "Real cuTile\'s verdicts for tests/cutile_diff/run_diff.py; rewritten '
            'by run_diff.py TILE2CU --update-verdicts (see docs/cutile-reference.md).",\n'
            '  "verdicts": [\n' + ",\n".join("    " + ln for ln in lines) + "\n  ]\n}\n")
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


class VerdictCache:
    def __init__(self, venv: Path, reuse: bool = True, reference: Path = REFERENCE):
        """reuse False: every get() misses (cuTile runs on every case), the rest as usual."""
        self.venv_path = Path(venv) / VENV_FILE_NAME
        self.reference_path = reference
        self.code = _code_digest()
        self.reuse = reuse
        self.reference = read_reference(reference)
        try:
            self.local = {k: v for k, v in json.loads(self.venv_path.read_text()).items()
                          if _readable(v)}
        except (OSError, ValueError, AttributeError):
            self.local = {}
        self.from_reference = 0
        self.from_venv = 0
        self.ran = []              # cases cuTile ran on in this run
        self.saved_at = time.monotonic()
        self.asked = {}            # key -> case, every case of this run
        self.over_limit = {}       # key -> "Timeout" verdict: for the committed file only

    def key(self, kernel_file: Path, sig_text: str, kernel_name, arch: str) -> str:
        files = set()
        _local_imports(Path(kernel_file).resolve(), files)
        h = hashlib.sha256(self.code.encode())
        for f in sorted(files):
            h.update(str(f.relative_to(ROOT) if f.is_relative_to(ROOT) else f).encode() + b"\0")
            h.update(f.read_bytes() + b"\0")
        h.update(f"{sig_text}\0{kernel_name}\0{arch}".encode())
        return h.hexdigest()

    def get(self, key: str, case: str):
        self.asked[key] = case
        if self.reuse and key in self.reference:
            self.from_reference += 1
            return tuple(self.reference[key][1])
        if self.reuse and key in self.local:
            self.from_venv += 1
            return tuple(self.local[key])
        self.ran.append(case)
        return None

    def put(self, key: str, verdict) -> None:
        if verdict[1] not in NOT_KEPT:
            self.local[key] = list(verdict)
        if time.monotonic() - self.saved_at > SAVE_EVERY_S:
            self.save()

    def put_over_limit(self, key: str, seconds: int, info: dict) -> None:
        """cuTile ran to the time limit on this case: recorded by --update-verdicts alone."""
        self.over_limit[key] = [False, "Timeout", f"cuTile ran over {seconds} s when recorded", info or {}]

    def save(self, prune: bool = False) -> None:
        """The venv's file. prune (after a run over every case): forget what no case asked for."""
        if prune:
            self.local = {k: v for k, v in self.local.items() if k in self.asked}
        tmp = self.venv_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.local, sort_keys=True))
        os.replace(tmp, self.venv_path)
        self.saved_at = time.monotonic()

    def update_reference(self) -> tuple:
        """Rewrites the committed file from this (full) run. -> (entries, added, dropped)"""
        records = {}
        for key, case in self.asked.items():
            verdict = self.local.get(key) or self.over_limit.get(key) or \
                (self.reference.get(key) or (None, None))[1]
            if verdict is not None and _readable(list(verdict), timeouts_too=True):
                records[key] = (case, list(verdict))
        write_reference(records, self.reference_path)
        added = sum(k not in self.reference for k in records)
        dropped = sum(k not in records for k in self.reference)
        return len(records), added, dropped
