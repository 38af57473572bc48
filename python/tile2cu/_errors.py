"""cuTile's exception classes, raised with the transpiler's diagnostics.

The names are cuTile's public ones; as in cuTile, each is an alias of a class with the internal
name (`TileTypeError.__name__ == "TypeCheckingError"`), so tracebacks read the same.
"""

from __future__ import annotations

import re


class Loc:
    """Where an error points: file, 1-based line and column."""

    __slots__ = ("filename", "line", "col")

    def __init__(self, filename: str | None, line: int, col: int):
        self.filename, self.line, self.col = filename, line, col

    def __str__(self) -> str:
        return f"{self.filename or '<unknown>'}:{self.line}:{self.col}"

    def __repr__(self) -> str:
        return f"Loc({self.filename!r}, {self.line}, {self.col})"


class TileError(Exception):
    """A compile-time error in tile code. `message` is the one-line gist, `loc` where it points,
    `diagnostics` the transpiler's full text (`file:line:col`, the source line, a caret)."""

    def __init__(self, message: str, loc: Loc | None = None, diagnostics: str = ""):
        super().__init__(message)
        self.message = message
        self.loc = loc
        self.diagnostics = diagnostics

    def __str__(self) -> str:
        return self.diagnostics.rstrip("\n") if self.diagnostics else self.message


class UnsupportedSyntaxError(TileError):
    pass


class TypeCheckingError(TileError):
    pass


class InvalidValueError(TileError):
    pass


class UnsupportedFeatureError(TileError):
    pass


class StaticAssertionError(TileError):
    pass


class StaticEvalError(TileError):
    pass


class StaticException(StaticEvalError):
    pass


class RecursionLimitError(TileError):
    pass


class InternalError(TileError):
    pass


class InternalCompilerError(InternalError):
    """A compiler run that failed for a reason other than an error in the kernel; cuTile's
    constructor (`compiler_flags`, `compiler_version` say which compiler ran how)."""

    def __init__(self, message: str, loc: Loc | None = None, compiler_flags: str = "",
                 compiler_version: str | None = None, *, diagnostics: str = ""):
        super().__init__(message, loc, diagnostics)
        self.compiler_flags = compiler_flags
        self.compiler_version = compiler_version


class CompilerExecutionError(InternalCompilerError):
    """The transpiler or nvcc failed in a way that is not an error in the kernel. Built as in
    cuTile: `CompilerExecutionError(return_code, message, loc, compiler_flags, version)`."""

    def __init__(self, return_code: int, message: str, loc: Loc | None = None,
                 compiler_flags: str = "", compiler_version: str | None = None, *,
                 diagnostics: str = ""):
        super().__init__(f"Return code {return_code}\n{message}", loc, compiler_flags,
                         compiler_version, diagnostics=diagnostics)
        self.return_code = return_code


class CompilerTimeoutError(InternalCompilerError):
    """A compiler run past the time limit (`ct.compiler_timeout`). Built as in cuTile:
    `CompilerTimeoutError(message, compiler_flags, version)`."""

    def __init__(self, message: str, compiler_flags: str = "",
                 compiler_version: str | None = None):
        super().__init__(message, None, compiler_flags, compiler_version)


class UnsupportedCallError(TileError):
    """A builtin or class that device code cannot call ("eval() is not supported in device
    code"): cuTile's private class, a direct subclass of TileError as there."""


TileSyntaxError = UnsupportedSyntaxError
TileTypeError = TypeCheckingError
TileValueError = InvalidValueError
TileUnsupportedFeatureError = UnsupportedFeatureError
TileStaticAssertionError = StaticAssertionError
TileStaticEvalError = StaticEvalError
TileRecursionError = RecursionLimitError
TileInternalError = InternalError
TileCompilerError = InternalCompilerError
TileCompilerExecutionError = CompilerExecutionError
TileCompilerTimeoutError = CompilerTimeoutError

# error[<class>] in the transpiler's diagnostics -> the class to raise.
_BY_DIAGNOSTIC_NAME = {
    "TileSyntaxError": TileSyntaxError,
    "TileTypeError": TileTypeError,
    "TileValueError": TileValueError,
    "TileUnsupportedFeatureError": TileUnsupportedFeatureError,
    "TileStaticAssertionError": TileStaticAssertionError,
    "TileStaticEvalError": TileStaticEvalError,
    "TileRecursionError": TileRecursionError,
    "UnsupportedCallError": UnsupportedCallError,
}

# The transpiler names a kernel it cannot find (made at run time, not by a decorator or a
# module-level `k = ct.kernel(f)`) with a usage error: for the launcher, an unsupported kernel.
_BY_DIAGNOSTIC_NAME["UsageError"] = TileUnsupportedFeatureError

_HEAD = re.compile(r"^(?:(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): )?error\[(?P<kind>\w+)\]: "
                   r"(?P<msg>.*)$", re.MULTILINE)


def from_diagnostics(text: str, exit_code: int) -> TileError:
    """The exception for a failed transpiler run: the class its first error names, carrying
    the whole diagnostics text. A signature or usage error means the launcher built a bad
    command line (a bug here, not in the kernel): TileInternalError."""
    m = _HEAD.search(text)
    if not m:
        return TileCompilerExecutionError(
            exit_code, f"tile2cu exited with status {exit_code}",
            diagnostics=f"tile2cu exited with status {exit_code}:\n{text}")
    cls = _BY_DIAGNOSTIC_NAME.get(m.group("kind"), TileInternalError)
    loc = Loc(m.group("file"), int(m.group("line")), int(m.group("col"))) if m.group("line") else None
    return cls(m.group("msg"), loc, text)
