#!/usr/bin/env python3
"""Regenerates src/emit/runtime_names.inc: every name the runtime declares in namespace tile2cu
(functions, class templates, constants, aliases, nested namespaces, namespace-scope operators)
and every macro it defines, each with the header that declares it. The emitter includes, for a
generated file, the headers of the runtime names the file uses (src/emit/runtime_includes.cpp).

Macros expand declarations (TILE2CU_MATH_UNARY(..., exp, ...) declares exp), so the headers are
read as the preprocessor leaves them: nvcc -E of the umbrella header, once for the host and once
for sm_90a's device code (the arch-dependent parts), its line markers telling which runtime
header each declaration came from. A name declared in several headers (overloads,
specializations) is listed once per header: a file that uses it includes them all, so it sees
the same overload set as with the umbrella header.

Usage: scripts/runtime-names.py [--nvcc PATH] [--check]   (a few seconds)
  --check: compare with the file instead of writing it; exit 1 when they differ (ctest
           runtime_names_table), 77 (skipped) without nvcc.
"""
import argparse
import difflib
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNTIME = ROOT / "runtime" / "tile2cu"
OUT = ROOT / "src" / "emit" / "runtime_names.inc"

TOKEN = re.compile(r'''
    (?P<str>"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<num>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.'])*)
  | (?P<punct>::|->|\.\.\.|<<=|<<|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\+\+|--|[^\sA-Za-z0-9_])
''', re.VERBOSE)
MARKER = re.compile(r'^#\s*(?:line\s+)?\d+\s+"([^"]*)"')

CLASS_KEYS = {"struct", "class", "union", "enum"}
# Keywords and attributes whose parenthesized operand comes before a declared name.
PAREN_PREFIXES = {"decltype", "alignas", "__attribute__", "__declspec", "noexcept", "sizeof",
                  "alignof", "__launch_bounds__", "__align__", "__nv_register_params__"}
KEYWORDS = {"const", "constexpr", "consteval", "inline", "static", "extern", "volatile", "auto",
            "void", "bool", "char", "short", "int", "long", "float", "double", "signed",
            "unsigned", "typename", "template", "explicit", "friend", "virtual", "mutable",
            "register", "thread_local", "return", "operator"} | PAREN_PREFIXES


def runtime_header(path):
    """'tile2cu/x.cuh' for a path inside runtime/tile2cu, else None."""
    p = Path(path)
    try:
        p = p.resolve()
    except OSError:
        return None
    return f"tile2cu/{p.name}" if p.parent == RUNTIME.resolve() else None


def runtime_tokens(preprocessed):
    """(token, header) for each token the runtime headers contribute to nvcc -E's output."""
    header = None
    for line in preprocessed.splitlines():
        if line.startswith("#"):
            m = MARKER.match(line)
            if m:
                header = runtime_header(m.group(1))
            continue
        if header is None:
            continue
        for m in TOKEN.finditer(line):
            tok = m.group(0)
            # '>>' closes two template argument lists; the lexer never joins them.
            yield tok, header


class Parser:
    """Declarations at the scope of namespace tile2cu, from a token list. Only names matter, so
    bodies, initializers and parameter lists are skipped, balanced."""

    def __init__(self, tokens):
        self.toks = [t for t, _ in tokens]
        self.where = [h for _, h in tokens]
        self.names = set()  # (name, header)

    def record(self, i):
        self.names.add((self.toks[i], self.where[i]))

    def skip_group(self, i):
        """Index after the bracket group that opens at i."""
        pairs = {"(": ")", "[": "]", "{": "}"}
        stack = [pairs[self.toks[i]]]
        i += 1
        while stack:
            t = self.toks[i]
            if t in pairs:
                stack.append(pairs[t])
            elif t == stack[-1]:
                stack.pop()
            i += 1
        return i

    def skip_angles(self, i):
        """Index after the template argument list that opens at i ('<')."""
        depth = 0
        while True:
            t = self.toks[i]
            if t in "([{":
                i = self.skip_group(i)
                continue
            if t == "<":
                depth += 1
            elif t == ">":
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1

    def skip_to_end(self, i):
        """Index after the ';' that ends the declaration, skipping groups."""
        while self.toks[i] != ";":
            i = self.skip_group(i) if self.toks[i] in "([{" else i + 1
        return i + 1

    def scope(self, i, in_tile2cu, path):
        """Parses declarations until the '}' closing this scope (or the end); index after it."""
        n = len(self.toks)
        while i < n:
            t = self.toks[i]
            if t == "}":
                return i + 1
            if t == ";":
                i += 1
            elif t == "namespace":
                i = self.namespace(i, in_tile2cu, path)
            elif t == "extern" and i + 2 < n and self.toks[i + 1].startswith('"') and self.toks[i + 2] == "{":
                i = self.scope(i + 3, in_tile2cu, path)
            elif in_tile2cu:
                i = self.declaration(i)
            else:
                i = self.skip_declaration(i)
        return i

    def namespace(self, i, in_tile2cu, path):
        j = i + 1
        parts = []
        while self.toks[j] not in ("{", "="):
            if self.toks[j] != "::" and self.toks[j] != "inline":
                parts.append(j)
            j += 1
        if self.toks[j] == "=":  # namespace alias
            if in_tile2cu:
                self.record(parts[0])
            return self.skip_to_end(j)
        inner = path + [self.toks[k] for k in parts]
        if inner == ["tile2cu"]:
            return self.scope(j + 1, True, inner)
        if inner[:1] == ["tile2cu"] and len(inner) > 1:
            # A nested namespace (gemm, tma, wgmma, ...) is used through its name; detail is not
            # used by generated code at all.
            first = parts[len(parts) - (len(inner) - 1)] if not in_tile2cu else parts[0]
            if self.toks[first] != "detail":
                self.record(first)
        return self.skip_group(j)

    def skip_declaration(self, i):
        """A declaration outside tile2cu: up to its ';' or the end of its body."""
        while self.toks[i] not in (";", "{", "}"):
            i = self.skip_group(i) if self.toks[i] in "([" else i + 1
        if self.toks[i] == "}":
            return i
        if self.toks[i] == ";":
            return i + 1
        i = self.skip_group(i)
        return i + 1 if i < len(self.toks) and self.toks[i] == ";" else i

    def declaration(self, i):
        toks = self.toks
        # template <...> headers, explicit instantiations and specializations.
        while toks[i] == "template":
            i += 1
            if toks[i] == "<":
                i = self.skip_angles(i)
        if toks[i] == "using":
            if toks[i + 1] == "namespace":
                return self.skip_to_end(i)
            if toks[i + 2] == "=":
                self.record(i + 1)
                return self.skip_to_end(i)
            end = self.skip_to_end(i)
            self.record(end - 2)  # using-declaration: its last name
            return end
        if toks[i] in ("static_assert", "typedef"):
            end = self.skip_to_end(i)
            if toks[i] == "typedef":
                self.record(end - 2)
            return end
        j = i
        while True:
            t = toks[j]
            if t in CLASS_KEYS:
                return self.class_declaration(j)
            if t in PAREN_PREFIXES and toks[j + 1] == "(":
                j = self.skip_group(j + 1)
                continue
            if t == "[" and toks[j + 1] == "[":  # [[attribute]]
                j = self.skip_group(j)
                continue
            if t == "operator":
                # Namespace-scope operators, recorded as "operator+": generated code selects them
                # by its operator tokens.
                k = j + 1
                op = ""
                while toks[k] != "(" or op == "":
                    op += toks[k]
                    k += 1
                    if op in ("()", "[]"):
                        break
                self.names.add(("operator" + op, self.where[j]))
                return self.function_rest(k)
            if re.match(r"[A-Za-z_]", t) and toks[j + 1] == "<" and t not in KEYWORDS:
                j = self.skip_angles(j + 1)
                continue
            if t in ("(", "=", ";", "{", "[", ","):
                prev = toks[j - 1]
                if re.match(r"[A-Za-z_]", prev) and prev not in KEYWORDS and toks[j - 2] != "::":
                    self.record(j - 1)
                if t == "(":
                    return self.function_rest(j)
                if t == ";":
                    return j + 1
                return self.skip_to_end(j)
            j += 1

    def function_rest(self, j):
        """From a declarator's '(': past its ';' or its body."""
        toks = self.toks
        while toks[j] not in (";", "{"):
            j = self.skip_group(j) if toks[j] in "([" else j + 1
        if toks[j] == ";":
            return j + 1
        j = self.skip_group(j)
        return j + 1 if toks[j] == ";" else j

    def class_declaration(self, j):
        toks = self.toks
        j += 1
        if toks[j] in ("class", "struct"):  # enum class
            j += 1
        while True:
            if toks[j] in PAREN_PREFIXES and toks[j + 1] == "(":
                j = self.skip_group(j + 1)
            elif toks[j] == "[" and toks[j + 1] == "[":
                j = self.skip_group(j)
            else:
                break
        if re.match(r"[A-Za-z_]", toks[j]) and toks[j + 1] != "::":
            self.record(j)
        while toks[j] not in (";", "{"):
            j = self.skip_group(j) if toks[j] in "([" else j + 1
        if toks[j] == "{":
            j = self.skip_group(j)
        return self.skip_to_end(j)


def preprocess(nvcc, extra):
    with tempfile.TemporaryDirectory() as work:
        src = Path(work) / "umbrella.cu"
        src.write_text("#include <tile2cu/tile2cu.cuh>\n#include <tile2cu/dispatch.hpp>\n")
        cmd = [nvcc, "-std=c++17", "-I", str(ROOT / "runtime"), "-arch=sm_90a", "-E", *extra, str(src)]
        return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def macros():
    """(macro, header) for each #define of the runtime headers."""
    found = set()
    for path in sorted(RUNTIME.iterdir()):
        for m in re.finditer(r"^\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)", path.read_text(), re.M):
            found.add((m.group(1), f"tile2cu/{path.name}"))
    return found


def table(nvcc):
    names = set()
    # The host pass, and sm_90a's device pass (TILE2CU_HAS_WGMMA, TILE2CU_HAS_TMA, __CUDA_ARCH__).
    for extra in ([], ["-D__CUDA_ARCH__=900", "-D__CUDA_ARCH_FEAT_SM90_ALL"]):
        parser = Parser(list(runtime_tokens(preprocess(nvcc, extra))))
        parser.scope(0, False, [])
        names |= parser.names
    names |= macros()
    names = {(n, h) for n, h in names if h != "tile2cu/tile2cu.cuh"}
    lines = ["// Generated by scripts/runtime-names.py from runtime/tile2cu/. Do not edit: rerun the",
             "// script. Each runtime name (declared in namespace tile2cu, or a macro) with the header",
             "// declaring it; included by runtime_includes.cpp."]
    lines += [f'{{"{n}", "{h}"}},' for n, h in sorted(names)]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    if not Path(args.nvcc).is_file():
        print(f"no nvcc at {args.nvcc}: skipped", file=sys.stderr)
        return 77
    text = table(args.nvcc)
    if args.check:
        old = OUT.read_text() if OUT.exists() else ""
        if old != text:
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), text.splitlines(True),
                                                       str(OUT), "regenerated"))
            print(f"{OUT} is stale: rerun scripts/runtime-names.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text)
    print(f"wrote {OUT} ({text.count(chr(10)) - 3} names)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
