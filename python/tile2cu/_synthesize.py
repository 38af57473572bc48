"""A module for the transpiler when the kernel's own file cannot serve as one.

The transpiler reads a .py file and finds kernels decorated `@ct.kernel` (or bound by a
module-level `k = ct.kernel(f)`) at its top level. Kernels made otherwise (a plain `def` passed
to `ct.kernel` inside a function, a kernel defined inside a function and closing over its
variables, a function exec'd from a string with `ct` in its globals) are compiled from a
synthesized module: the kernel's source lines at their original line numbers, a prelude above
them binding the names the kernel uses (imports for modules, literals for constants, `x = ct.sum`
for library functions) and the source of the Python functions it calls after it. A line map
turns the synthesized file's locations in diagnostics back into the user's file and line.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import dataclasses
import enum
import functools
import hashlib
import inspect
import math
import numbers
import re
import sys
import textwrap
import types
import typing
from pathlib import Path

from . import _dtypes, _errors

MAX_HELPERS = 64   # functions pulled in by source, all levels together
MAX_DEPTH = 8      # helper calling helper calling ...

_KERNEL_DECORATOR_NAMES = ("kernel",)


# ---- does the kernel's file serve as it is? ----------------------------------------------------

def file_serves(fn: types.FunctionType, path: Path | None, bound_as: str | None = None) -> bool:
    """True when the transpiler finds `fn` in its own file as it stands: a top-level function of
    the module the file defines, decorated `@...kernel` or bound by `k = ...kernel(fn, ...)`.
    `bound_as`: the name a `k.replace_hints(...)` kernel is launched by, which must then be bound
    at the top level too (`k2 = k.replace_hints(...)`; one bound inside `if __name__ ==
    "__main__":` or a function is not a name the transpiler sees)."""
    if path is None or "<locals>" in fn.__qualname__ or fn.__name__ == "<lambda>":
        return False
    module_file = fn.__globals__.get("__file__")
    if not module_file or Path(module_file).resolve() != path:
        return False   # exec'd code: its names live in the exec globals, not in the file
    try:
        tree = ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return False
    if bound_as is not None and not any(
            isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == bound_as
                                                 for t in node.targets)
            for node in tree.body):
        return False
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == fn.__name__:
            if any(_names_kernel(d) for d in node.decorator_list):
                return True
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if isinstance(value, ast.Call) and _names_kernel(value.func) and value.args \
                and isinstance(value.args[0], ast.Name) and value.args[0].id == fn.__name__:
            return True
    return False


def _names_kernel(expr) -> bool:
    if isinstance(expr, ast.Call):
        expr = expr.func
    return (isinstance(expr, ast.Name) and expr.id in _KERNEL_DECORATOR_NAMES) or \
        (isinstance(expr, ast.Attribute) and expr.attr in _KERNEL_DECORATOR_NAMES)


# ---- the synthesized module ---------------------------------------------------------------------

class Synthesized:
    """The module text, the file name to give it (the kernel file's stem) and the line map."""

    def __init__(self, text: str, stem: str, segments: list[tuple[int, int, str, int]],
                 unwritable: dict[str, str] | None = None):
        self.text = text
        self.stem = stem
        self.segments = segments   # (first synthesized line, count, original file, its first line)
        self.digest = hashlib.sha256(text.encode()).hexdigest()
        # Captured names whose values cannot be written (a device array, a list): left out of
        # the module, so the transpiler reaches them in the kernel's order, as cuTile does (an
        # error of an earlier static_eval comes first), and reports them undefined. Name -> why.
        self.unwritable = unwritable or {}

    def error_of(self, error: _errors.TileError) -> _errors.TileError:
        """The transpiler's error, or, where it is a name left out as unwritable, why."""
        if not isinstance(error, _errors.TileSyntaxError):
            return error
        m = re.fullmatch(r"Undefined variable (\w+) used", error.message)
        if not m or m.group(1) not in self.unwritable:
            return error
        why = self.unwritable[m.group(1)]
        # The transpiler's location and source line stay; only the verdict changes.
        text = error.diagnostics.replace(f"error[TileSyntaxError]: {m.group(0)}",
                                         f"error[TileUnsupportedFeatureError]: {why}", 1)
        return _errors.TileUnsupportedFeatureError(why, error.loc, text)

    def original(self, line: int) -> tuple[str, int] | None:
        for start, count, path, orig in self.segments:
            if start <= line < start + count:
                return path, orig + (line - start)
        return None

    def remap(self, text: str, synth_path: str) -> str:
        """`synth_path:L:C` in diagnostics -> the user's file and line."""
        def one(m):
            found = self.original(int(m.group(1)))
            if found is None:
                return m.group(0)
            return f"{found[0]}:{found[1]}:{m.group(2)}"
        return re.sub(re.escape(synth_path) + r":(\d+):(\d+)", one, text)


def _unsupported(message: str) -> _errors.TileUnsupportedFeatureError:
    return _errors.TileUnsupportedFeatureError(message)


def synthesize(fn: types.FunctionType, options: dict) -> Synthesized:
    """The module for kernel `fn`, written with the kernel options `options`."""
    if fn.__name__ == "<lambda>":
        raise _unsupported("a lambda cannot be a kernel: tile2cu compiles kernels written "
                           "with `def`")
    kernel_file, first, lines = _source_lines(fn, f"kernel '{fn.__qualname__}'")
    node = _function_node(lines, fn)
    def_line = node.lineno                       # within `lines`; decorators come before it
    body = [""] * (def_line - 1) + lines[def_line - 1:]   # the kernel's decorators become ours
    env = _Environment(fn.__name__)
    env.bind_uses(node, fn, depth=0, skip_decorators=True)
    decorator = f"@{env.tile_alias()}.kernel{_options_text(options, env.tile_alias())}"

    prelude = env.statements()
    room = first - 1 + (def_line - 1)            # free lines above the def, in the user's file
    if prelude and room < len(prelude) + 1:
        prelude = ["; ".join(prelude)]           # simple statements: one line holds them all
    needed = len(prelude) + 1
    offset = max(0, needed - room)
    out = [""] * (first - 1 + offset) + body
    kernel_start = first + offset
    def_index = kernel_start - 1 + def_line - 1   # 0-based; the lines above it are blank
    out[def_index - 1] = decorator
    for i, statement in enumerate(prelude):
        out[i] = statement
    segments = [(kernel_start, len(body), str(kernel_file), first)]
    for helper_file, helper_first, helper_lines in env.helpers:
        out.append("")
        out.append("")
        segments.append((len(out) + 1, len(helper_lines), str(helper_file), helper_first))
        out += helper_lines
    if env.late_lines:
        out += ["", ""] + env.late_lines
    return Synthesized("\n".join(out) + "\n", kernel_file.stem, segments, env.unwritable)


def _options_text(options: dict, tile_alias: str) -> str:
    items = []
    for name, value in options.items():
        if value is None or (name == "opt_level" and value == 3):
            continue
        if type(value).__name__ == "ByTarget":
            parts = [f"{k}={v!r}" for k, v in value.by_arch.items()]
            if value.default is not None:
                parts.append(f"default={value.default!r}")
            items.append(f"{name}={tile_alias}.ByTarget({', '.join(parts)})")
        else:
            items.append(f"{name}={value!r}")
    return f"({', '.join(items)})" if items else ""


def _source_lines(fn, what):
    try:
        lines, first = inspect.getsourcelines(fn)
        path = inspect.getsourcefile(fn)
    except (OSError, TypeError):
        lines, path = None, None
    if not lines or not path or not Path(path).is_file():
        raise _unsupported(f"{what} has no source file (defined in an interactive session or "
                           "by exec of a string with no file): tile2cu reads kernels from .py "
                           "files")
    text = textwrap.dedent("".join(lines))
    return Path(path).resolve(), max(first, 1), text.splitlines()


def _function_node(lines, fn):
    try:
        tree = ast.parse("\n".join(lines) + "\n")
    except SyntaxError as e:
        raise _unsupported(f"cannot read the source of '{fn.__qualname__}': {e}") from None
    node = tree.body[0] if tree.body else None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        raise _unsupported(f"cannot find the `def` of '{fn.__qualname__}' in its source")
    return node


def _class_node(lines, cls):
    try:
        tree = ast.parse("\n".join(lines) + "\n")
    except SyntaxError as e:
        raise _unsupported(f"cannot read the source of class '{cls.__qualname__}': {e}") from None
    node = tree.body[0] if tree.body else None
    if not isinstance(node, ast.ClassDef):
        raise _unsupported(f"cannot find the `class` statement of '{cls.__qualname__}' in its "
                           "source")
    return node


def _user_class(cls) -> bool:
    """A class defined in a Python file of the user's (not a library's or a builtin)."""
    module = sys.modules.get(getattr(cls, "__module__", None) or "")
    path = getattr(module, "__file__", None)
    if not path or cls.__module__ == "builtins":
        return False
    return not any(Path(path).resolve().is_relative_to(Path(p).resolve())
                   for p in _library_roots())


@functools.lru_cache(maxsize=1)
def _library_roots():
    import sysconfig
    roots = {sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    roots.add(str(Path(__file__).resolve().parent))   # tile2cu's own classes
    return sorted(roots)


# ---- the names a function uses ------------------------------------------------------------------

def _used_names(node, skip_decorators):
    """Names read in `node` (a function's signature and body, or a class's bases and body) that
    are not bound inside it."""
    reads, bound = set(), set()
    if isinstance(node, ast.ClassDef):
        roots = [*node.bases, *node.keywords, *node.body]
    else:
        roots = [node.args, *node.body]
        if node.returns is not None:
            roots.append(node.returns)
    if not skip_decorators:
        roots += node.decorator_list

    def visit(sub, shadowed):
        if isinstance(sub, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            # A comprehension's targets are its own: `tuple(n for n in range(n))` reads the
            # outer n in its first iterable only, and leaves the outer n bound as it was.
            inner = set(shadowed)
            for k, gen in enumerate(sub.generators):
                visit(gen.iter, shadowed if k == 0 else inner)
                inner |= {t.id for t in ast.walk(gen.target) if isinstance(t, ast.Name)}
                for cond in gen.ifs:
                    visit(cond, inner)
            for part in ((sub.key, sub.value) if isinstance(sub, ast.DictComp) else (sub.elt,)):
                visit(part, inner)
            return
        if isinstance(sub, ast.Name):
            if isinstance(sub.ctx, ast.Load):
                if sub.id not in shadowed:
                    reads.add(sub.id)
            else:
                bound.add(sub.id)
        elif isinstance(sub, ast.arg):
            bound.add(sub.arg)
        elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(sub.name)
        elif isinstance(sub, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in sub.names)
        for child in ast.iter_child_nodes(sub):
            visit(child, shadowed)

    for root in roots:
        visit(root, frozenset())
    return sorted(reads - bound)


def _lookup(fn, name):
    """(found, value) for `name` as `fn` sees it: its closure, then its globals. For a class:
    the closures of its methods (a class defined in a function), its bases by name, then its
    module's globals."""
    if isinstance(fn, type):
        for member in vars(fn).values():
            member = getattr(member, "__func__", member)   # staticmethod, classmethod
            if isinstance(member, types.FunctionType) and name in member.__code__.co_freevars:
                return _lookup(member, name)
        # A base class defined in a function, as cuTile's tests define them: the class holds it.
        for base in fn.__bases__:
            if base.__name__ == name:
                return True, base
        module = sys.modules.get(fn.__module__)
        namespace = vars(module) if module is not None else {}
        return (True, namespace[name]) if name in namespace else (False, None)
    code = fn.__code__
    if fn.__closure__ and name in code.co_freevars:
        cell = fn.__closure__[code.co_freevars.index(name)]
        try:
            return True, cell.cell_contents
        except ValueError:   # an empty cell: assigned after the kernel was made
            return False, None
    if name in fn.__globals__:
        return True, fn.__globals__[name]
    return False, None


def _module_name(module) -> str:
    from . import _alias
    for public, ours in _alias._SUBMODULES.items():
        if module is ours:
            return public
    return module.__name__


class _Environment:
    """The module-level bindings the synthesized module needs, in order, and the helpers."""

    def __init__(self, kernel_name):
        self.values: dict[str, object] = {kernel_name: None}   # name -> value it stands for
        self.lines: list[str] = []         # above the kernel
        self.late_lines: list[str] = []    # after the helpers' defs: names bound to them
        self.helpers: list[tuple[Path, int, list[str]]] = []
        self.helper_functions: dict[int, str] = {}            # id(function) -> its def's name
        self.unwritable: dict[str, str] = {}   # name -> why its captured value is left out
        self._tile_alias = None

    def statements(self):
        return list(self.lines)

    def tile_alias(self) -> str:
        """A name bound to cuda.tile, for the kernel decorator."""
        if self._tile_alias is None:
            from . import cutile
            for name, value in self.values.items():
                if value is cutile:
                    self._tile_alias = name
                    break
            else:
                self._tile_alias = self._import_alias(cutile, "tile2cu_ct")
        return self._tile_alias

    def _import_alias(self, module, preferred):
        for name, value in self.values.items():
            if value is module:
                return name
        name = preferred
        while name in self.values:
            name += "_"
        self._bind_module(name, module)
        return name

    def _bind_module(self, name, module):
        self.values[name] = module
        dotted = _module_name(module)
        self.lines.append(f"import {dotted}" if dotted == name else f"import {dotted} as {name}")

    def _claim(self, name, value, what):
        """False when `name` is bound already to this very value; raises on another value."""
        if name in self.values:
            old = self.values[name]
            if old is value or (type(old) is type(value) and _is_plain(value) and old == value):
                return False
            raise _unsupported(f"{what}: the name '{name}' stands for two different values among "
                               "the functions this kernel uses; tile2cu compiles them as one "
                               "module, so rename one")
        self.values[name] = value
        return True

    def bind_uses(self, node, fn, depth, skip_decorators=False):
        # Only a function body's reads are reached in order; annotations and defaults (read as
        # the def is), decorators and class statements are not.
        outside_body = set()
        if isinstance(node, ast.FunctionDef):
            for part in (node.args, node.returns, *node.decorator_list):
                if part is not None:
                    outside_body |= {n.id for n in ast.walk(part) if isinstance(n, ast.Name)}
        for name in _used_names(node, skip_decorators):
            found, value = _lookup(fn, name)
            if not found:
                continue   # a builtin, or undefined: the transpiler says which, with a location
            if isinstance(value, types.ModuleType):
                value = _numpy_in_place_of(value, _attributes_read(node, name))
            in_body = isinstance(node, ast.FunctionDef) and name not in outside_body
            self.bind(name, value, fn, depth, in_body)

    def bind(self, name, value, fn, depth, in_body=False):
        where = f"'{name}' (used by '{fn.__qualname__}')"
        if isinstance(value, types.ModuleType):
            if self._claim(name, value, where):
                self.values.pop(name)
                self._bind_module(name, value)
            return
        typed = self._typed_scalar_text(value)
        if typed is not None:
            if self._claim(name, value, where):
                self.lines.append(f"{name} = {typed}")
            return
        literal = _literal(value)
        if literal is not None:
            if self._claim(name, value, where):
                self.lines.append(f"{name} = {literal}")
            return
        if _is_builtin(value):
            if self._claim(name, value, where) and name != value.__name__:
                self.lines.append(f"{name} = {value.__name__}")
            return
        # Before the library path, which would read Annotated[ct.float16, ...] as its dtype.
        text = self._annotation_text(value)
        if text is not None:
            if self._claim(name, value, where):
                self.lines.append(f"{name} = {text}")
            return
        path = self._library_path(value)
        if path is not None:
            if self._claim(name, value, where):
                self.lines.append(f"{name} = {path}")
            return
        target = _helper_source_function(value)
        if isinstance(target, types.FunctionType):
            self._bind_function(name, value, target, fn, depth, where)
            return
        if isinstance(value, type) and _user_class(value):
            self._bind_class(name, value, depth, where)
            return
        text = self._instance_text(value, depth, where)
        if text is not None:
            if self._claim(name, value, where):
                self.late_lines.append(f"{name} = {text}")
            return
        why = (f"the kernel uses the captured variable {where}, a {type(value).__name__} value "
               f"({_short_repr(value)}) that tile2cu cannot write into the module it compiles: "
               "kernels may capture bool, int, float, str, None, dtypes, enums, tuples of these, "
               "modules, Python functions and classes (dataclasses, enums) with source, and "
               "frozen dataclass instances of such values")
        # Left unbound it would read as Python's own builtin of that name: refused now.
        if not in_body or hasattr(builtins, name):
            raise _unsupported(why)
        if self._claim(name, value, where):
            self.unwritable[name] = why

    def _bind_function(self, name, value, target, fn, depth, where):
        if target.__name__ == "<lambda>":
            if self._claim(name, value, where):
                self.late_lines.append(f"{name} = {self._lambda_text(target, depth)}")
            return
        defined = self.helper_functions.get(id(target))
        if defined is None:
            if len(self.helper_functions) >= MAX_HELPERS or depth >= MAX_DEPTH:
                raise _unsupported(f"{where}: the kernel pulls in more than {MAX_HELPERS} "
                                   f"functions or {MAX_DEPTH} levels of them; tile2cu compiles "
                                   "such kernels from a module-level @ct.kernel")
            defined = target.__name__
            if not self._claim(defined, value, where):
                self.helper_functions[id(target)] = defined
                return
            self.helper_functions[id(target)] = defined
            path, first, lines = _source_lines(target, f"function '{target.__qualname__}'")
            node = _function_node(lines, target)
            self.helpers.append((path, first, lines))
            self.bind_uses(node, target, depth + 1)
        if name != defined and self._claim(name, value, where):
            self.late_lines.append(f"{name} = {defined}")

    def _instance_text(self, value, depth, where, nesting=0):
        """Source for an instance of the user's classes, written after them: a member of the
        user's enum (`Color.RED`), a frozen dataclass instance of such values and constants
        (`Point(x=1, y=Color.RED)`); None for anything else."""
        cls = type(value)
        if nesting > MAX_DEPTH or not _user_class(cls):
            return None
        if isinstance(value, enum.Enum):
            self._bind_class(cls.__name__, cls, depth, where)
            return f"{self.helper_functions[id(cls)]}.{value.name}"
        if not dataclasses.is_dataclass(value) or not cls.__dataclass_params__.frozen:
            return None
        fields = [f for f in dataclasses.fields(value) if f.init]
        items = []
        for f in fields:
            item = getattr(value, f.name)
            text = _literal(item)
            if text is None:
                text = self._instance_text(item, depth, where, nesting + 1)
            if text is None:
                return None
            items.append(f"{f.name}={text}")
        self._bind_class(cls.__name__, cls, depth, where)
        return f"{self.helper_functions[id(cls)]}({', '.join(items)})"

    def _bind_class(self, name, cls, depth, where):
        """A class of the user's (a frozen dataclass, an enum) written from its source after the
        kernel, below the classes and functions it uses: the transpiler evaluates module-level
        statements in order, so bases and decorators must exist first."""
        defined = self.helper_functions.get(id(cls))
        if defined is None:
            if len(self.helper_functions) >= MAX_HELPERS or depth >= MAX_DEPTH:
                raise _unsupported(f"{where}: the kernel pulls in more than {MAX_HELPERS} "
                                   f"functions or classes, or {MAX_DEPTH} levels of them; "
                                   "tile2cu compiles such kernels from a module-level @ct.kernel")
            defined = cls.__name__
            if not self._claim(defined, cls, where):
                self.helper_functions[id(cls)] = defined
                return
            self.helper_functions[id(cls)] = defined
            path, first, lines = _source_lines(cls, f"class '{cls.__qualname__}'")
            node = _class_node(lines, cls)
            self.bind_uses(node, cls, depth + 1)
            self.helpers.append((path, first, lines))
        if name != defined and self._claim(name, cls, where):
            self.late_lines.append(f"{name} = {defined}")

    def _lambda_text(self, target, depth):
        """The lambda's expression, found in its file by line and parameter names."""
        code = target.__code__
        try:
            tree = ast.parse(Path(code.co_filename).read_bytes())
        except (OSError, SyntaxError, ValueError):
            tree = None
        params = list(code.co_varnames[:code.co_argcount])
        found = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda)
                 and n.lineno == code.co_firstlineno
                 and [a.arg for a in n.args.args] == params] if tree else []
        if len(found) != 1:
            raise _unsupported(f"cannot find the source of the lambda at {code.co_filename}:"
                               f"{code.co_firstlineno} that the kernel uses")
        for name in _used_names(ast.FunctionDef(name="l", args=found[0].args,
                                                body=[ast.Expr(found[0].body)],
                                                decorator_list=[], returns=None), True):
            ok, value = _lookup(target, name)
            if ok:
                self.bind(name, value, target, depth + 1)
        return ast.unparse(found[0])

    def _annotation_text(self, value):
        """Source for a typing alias of a parameter annotation the kernel's signature names
        (`ConstInt = ct.Constant[int]` at a test file's top level), so the transpiler resolves
        the annotation as it would in the user's file; None for anything else. Only
        `ct.Constant[T]` is built here (T a builtin type or one the library path finds); other
        aliases of cuda.tile (`ct.ScalarInt64`) are its own objects, found by the library path."""
        from ._annotations import ConstantAnnotation
        if typing.get_origin(value) is not typing.Annotated:
            return None
        inner, *metadata = typing.get_args(value)
        if len(metadata) != 1 or type(metadata[0]) is not ConstantAnnotation:
            return None
        if _is_builtin(inner) and isinstance(inner, type):
            inner_text = inner.__name__
        else:
            inner_text = self._library_path(inner)
        if inner_text is None:
            return None
        return f"{self.tile_alias()}.Constant[{inner_text}]"

    def _typed_scalar_text(self, value):
        """`ct.int16(4)` for a NumPy scalar (np.int16(4)): cuTile types it by its dtype, which
        a plain `4` would lose. None for other values."""
        if type(value).__module__ != "numpy" or not hasattr(value, "item") \
                or not hasattr(value, "dtype"):
            return None
        from . import cutile
        try:
            dtype = _dtypes.from_foreign(value.dtype)
        except Exception:   # noqa: BLE001 - a NumPy type cuTile has no dtype for
            return None
        literal = _literal(value.item())
        if dtype is None or getattr(cutile, dtype.name, None) is not dtype or literal is None:
            return None
        return f"{self.tile_alias()}.{dtype.name}({literal})"

    def _library_path(self, value):
        """`alias.attr` (or `alias.Enum.member`) for a value a known module holds."""
        from . import cutile
        dtype = None
        try:
            dtype = _dtypes.from_foreign(value)
        except Exception:   # noqa: BLE001 - any object may come here; most are not dtypes
            dtype = None
        if dtype is not None and getattr(cutile, dtype.name, None) is dtype:
            return f"{self.tile_alias()}.{dtype.name}"
        import operator
        # Library modules only: a function of the user's own modules is compiled from its
        # source, since the transpiler would not find those modules beside the synthesized file.
        for module in (cutile, math, operator, contextlib, enum, dataclasses, typing):
            for attr, held in vars(module).items():
                if attr.startswith("__"):
                    continue
                if held is value:
                    return f"{self._import_alias(module, _alias_hint(module))}.{attr}"
                if isinstance(value, enum.Enum) and held is type(value):
                    return (f"{self._import_alias(module, _alias_hint(module))}.{attr}."
                            f"{value.name}")
        return None


@contextlib.contextmanager
def _generator_for_its_wrapper():
    yield


# The code of the function @contextlib.contextmanager returns: its `__wrapped__` is the user's
# generator, whose source (decorator included) the transpiler inlines at each `with`.
_CONTEXTMANAGER_WRAPPER_CODE = _generator_for_its_wrapper.__code__


def _helper_source_function(value):
    """The function whose source stands for helper `value`: the user's function behind a
    @ct.function or @contextlib.contextmanager wrapper (whose names it looks up in its own
    globals, not the wrapper's), else `value` itself."""
    inner = getattr(value, "__tile_function__", None)
    if inner is not None:
        return inner
    if getattr(value, "__code__", None) is _CONTEXTMANAGER_WRAPPER_CODE:
        return getattr(value, "__wrapped__", value)
    return value


# Array libraries that re-export NumPy's scalar types and constants under NumPy's names (CuPy's
# `cp.float32` is `numpy.float32`). The transpiler knows NumPy, not them; where a kernel reads
# only such names from one, the synthesized module imports NumPy under its name.
_NUMPY_MIRRORS = ("cupy",)


def _numpy_in_place_of(module, attributes):
    """numpy, where `module` is an array library whose `attributes` (those the code reads) are
    NumPy's very objects (or equal numbers); else `module` itself."""
    if module.__name__ not in _NUMPY_MIRRORS or not attributes:   # None or empty
        return module
    import numpy
    missing = object()
    for attr in attributes:
        ours, theirs = getattr(module, attr, missing), getattr(numpy, attr, missing)
        same = ours is theirs or (isinstance(ours, float) and type(ours) is type(theirs)
                                  and (ours == theirs or (math.isnan(ours) and math.isnan(theirs))))
        if ours is missing or not same:
            return module
    return numpy


def _attributes_read(node, name):
    """The attributes read as `name.attr` in `node`, or None where `name` is also used otherwise
    (passed on whole, so what is read from it is unknown)."""
    attrs, attribute_uses, uses = set(), 0, 0
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) \
                and sub.value.id == name:
            attrs.add(sub.attr)
            attribute_uses += 1
        elif isinstance(sub, ast.Name) and sub.id == name:
            uses += 1
    return attrs if uses == attribute_uses else None


def _alias_hint(module):
    return "tile2cu_" + _module_name(module).replace(".", "_")


def _is_plain(value):
    return isinstance(value, (bool, int, float, str, tuple, type(None)))


def _is_builtin(value):
    name = getattr(value, "__name__", None)
    return isinstance(name, str) and getattr(builtins, name, None) is value \
        and not isinstance(value, (bool, int, float, str))


def _literal(value):
    """Python source for a constant, or None when `value` is not one."""
    if value is None or isinstance(value, (bool, str)):
        return repr(value)
    if isinstance(value, enum.Enum):
        return None
    if isinstance(value, numbers.Integral):
        return repr(int(value))
    if isinstance(value, numbers.Real):
        v = float(value)
        if math.isfinite(v):
            return repr(v)
        return 'float("nan")' if math.isnan(v) else ('float("inf")' if v > 0 else 'float("-inf")')
    if isinstance(value, tuple):
        items = [_literal(v) for v in value]
        if any(i is None and v is not None for i, v in zip(items, value)):
            return None
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    return None


def _short_repr(value):
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
