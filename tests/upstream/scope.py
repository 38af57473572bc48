"""The out-of-scope list (out_of_scope.txt): which of cuTile's tests check cuTile's internals
rather than the language and its host API, and why.

One entry a line, `PATTERN | REASON`; `#` starts a comment, blank lines are ignored. PATTERN is
a glob (`*` any text, `?` one character; `[` is literal, as in parametrization ids) over a test's id relative to cuTile's test/ folder:
    test_bytecode.py                              the whole file (it is not even imported)
    test_dispatcher.py::test_multi_launch_*       functions, with all their parametrizations
    test_x.py::test_f[float16*                    some parametrizations
    @use_mlir                                     every test carrying that pytest marker
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

LIST_FILE = Path(__file__).with_name("out_of_scope.txt")


@functools.lru_cache(maxsize=None)
def _glob(pattern: str) -> re.Pattern:
    parts = (".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    return re.compile("".join(parts), re.DOTALL)


def glob_match(text: str, pattern: str) -> bool:
    return _glob(pattern).fullmatch(text) is not None


class ScopeListError(ValueError):
    """A malformed line, with its file and line number."""


@dataclass
class Entry:
    pattern: str
    reason: str
    line: int
    whole_file: bool = field(init=False)
    marker: str | None = field(init=False)

    def __post_init__(self):
        self.marker = self.pattern[1:] if self.pattern.startswith("@") else None
        self.whole_file = self.marker is None and "::" not in self.pattern


def parse(text: str, source: str = str(LIST_FILE)) -> list[Entry]:
    entries = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        pattern, bar, reason = line.partition("|")
        pattern, reason = pattern.strip(), reason.strip()
        if not bar or "|" in reason:
            raise ScopeListError(f"{source}:{number}: expected `PATTERN | REASON` with one '|', got {raw!r}")
        if not pattern or not reason:
            raise ScopeListError(f"{source}:{number}: empty {'pattern' if not pattern else 'reason'} in {raw!r}")
        file_part = pattern.split("::", 1)[0]
        if pattern.startswith("@"):
            if not pattern[1:].isidentifier():
                raise ScopeListError(f"{source}:{number}: {pattern!r} is not `@marker_name`")
        elif not file_part.endswith((".py", "*")):
            raise ScopeListError(f"{source}:{number}: pattern {pattern!r} must start with a test "
                                 "file name (test_x.py, test_x.py::test_f)")
        entries.append(Entry(pattern, reason, number))
    return entries


def load(path: Path = LIST_FILE) -> list[Entry]:
    return parse(path.read_text(encoding="utf-8"), str(path))


class Scope:
    def __init__(self, entries: list[Entry]):
        self.entries = entries
        self.used: set[int] = set()

    def file_entry(self, relative_file: str) -> Entry | None:
        """The entry that puts a whole test file out of scope, or None."""
        for e in self.entries:
            if e.whole_file and glob_match(relative_file, e.pattern):
                self.used.add(e.line)
                return e
        return None

    def test_entry(self, relative_id: str, markers: set[str] = frozenset()) -> Entry | None:
        """The entry that puts one test (`test_x.py::test_f[params]`, carrying `markers`) out of
        scope, or None."""
        base = relative_id.split("[", 1)[0]
        for e in self.entries:
            if e.marker is not None:
                hit = e.marker in markers
            elif e.whole_file:
                hit = glob_match(relative_id.split("::", 1)[0], e.pattern)
            else:
                hit = glob_match(relative_id, e.pattern) or glob_match(base, e.pattern)
            if hit:
                self.used.add(e.line)
                return e
        return None

    def unused(self, used_lines=None) -> list[Entry]:
        """Entries that matched nothing (this session's matches, or the given lines): stale once
        cuTile renames a test."""
        used = self.used if used_lines is None else set(used_lines)
        return [e for e in self.entries if e.line not in used]
