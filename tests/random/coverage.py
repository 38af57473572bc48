#!/usr/bin/env python3
"""How often the random kernel generator draws each T1 / T2 construct of cutile-language.md.

    coverage.py [--count N] [--seed S]

Generates N programs (default 1,000) in each mode (default, gpu_safe), counts the programs whose
text holds each construct (a regular expression per row of tests/random/README.md's "Coverage
against the spec"), prints the table and exits 1 when a construct the README says is drawn in a
mode appears in none of that mode's programs: a generator change that loses a construct shows.
Generation only (no tile2cu): a few seconds."""
import argparse
import collections
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tilegen.generator import generate  # noqa: E402

# construct -> pattern over a generated module's text (re.M)
CONSTRUCTS = {
    "ct.bid(1|2)": r"ct\.bid\([12]\)",
    "ct.num_blocks": r"ct\.num_blocks\(",
    "ct.num_tiles": r"ct\.num_tiles\(",
    "ct.cdiv": r"ct\.cdiv\(",
    "load padding_mode": r"ct\.load\([^\n]*padding_mode=",
    "load order=": r"ct\.load\([^\n]*order=",
    "load latency=": r"ct\.load\([^\n]*latency=",
    "load allow_tma=": r"ct\.load\([^\n]*allow_tma=",
    "load check_bounds=": r"ct\.load\([^\n]*check_bounds=",
    "store order=": r"ct\.store\([^\n]*order=",
    "store latency=": r"ct\.store\([^\n]*latency=",
    "store allow_tma=": r"ct\.store\([^\n]*allow_tma=",
    "gather mask/padding_value": r"ct\.gather\([^\n]*mask=[^\n]*padding_value=",
    "gather/scatter check_bounds=": r"ct\.(gather|scatter)\([^\n]*check_bounds=",
    "gather/scatter latency=": r"ct\.(gather|scatter)\([^\n]*latency=",
    "scatter mask": r"ct\.scatter\([^\n]*mask=",
    "atomic_cas": r"ct\.atomic_cas\(", "atomic_xchg": r"ct\.atomic_xchg\(",
    "atomic_add": r"ct\.atomic_add\(", "atomic_max": r"ct\.atomic_max\(", "atomic_min": r"ct\.atomic_min\(",
    "scalar atomic": r"ct\.atomic_\w+\(y\d+, bid,",
    "MemoryOrder/MemoryScope": r"ct\.MemoryOrder\.\w+, memory_scope=ct\.MemoryScope",
    "arange": r"ct\.arange\(", "full": r"ct\.full\(", "zeros": r"ct\.zeros\(", "ones": r"ct\.ones\(",
    "astype": r"\.astype\(", "ct.astype": r"ct\.astype\(",
    "dtype constructor": r"= ct\.(u?int\d+|float\d+|bfloat16)\(",
    "ct.add/sub/mul/truediv": r"ct\.(add|sub|mul|truediv)\(",
    "ct.floordiv/mod/pow": r"ct\.(floordiv|mod|pow)\(",
    "rounding_mode=": r"rounding_mode=ct\.RoundingMode\.", "flush_to_zero=": r"flush_to_zero=True",
    **{f"ct.{f}": rf"ct\.{f}\(" for f in ("exp", "exp2", "sqrt", "rsqrt", "log", "log2", "sin", "cos",
                                          "tan", "sinh", "cosh", "tanh", "atan2", "floor", "ceil",
                                          "abs", "isnan", "negative", "bitwise_not", "bitwise_and",
                                          "bitwise_or", "bitwise_xor", "bitwise_lshift",
                                          "bitwise_rshift", "less", "less_equal", "greater",
                                          "greater_equal", "equal", "not_equal", "maximum",
                                          "minimum", "where", "sum", "max", "min", "prod", "argmax",
                                          "argmin", "cumsum", "cumprod", "mma", "matmul",
                                          "transpose", "reshape", "permute", "broadcast_to",
                                          "expand_dims", "cat", "extract")},
    "builtin min/max": r"[^.\w](min|max)\(",
    "where of two typed values": r"ct\.where\([^,\n]+, [a-z]+\d+, [a-z]+\d+\)",
    "keepdims": r"keepdims=True", "scan reverse": r"reverse=True",
    "mma acc=": r"ct\.mma\([^\n]*acc=", "@": r" @ ",
    "Tile.item()": r"\.item\(\)",
    "array .shape[0]": r"= x\d+\.shape\[0\]", "array .strides[0]": r"\.strides\[0\]",
    "tile .shape[i] / len / ndim": r"(\.shape\[\d\] (==|>=|<)|len\(\w+\.shape\)|\.ndim)",
    "x.dtype == ct.X": r"\.dtype == ct\.",
    "Array.slice": r"\.slice\(",
    "PaddingMode": r"ct\.PaddingMode\.",
    "Constant[int]": r"ct\.Constant\[int\]", "Constant[bool]": r"ct\.Constant\[bool\]",
    "scalar : int / float": r"s\d+: (int|float)\b", "scalar : bool": r"s\d+: bool",
    "kernel options / ByTarget": r"@ct\.kernel\(",
    "+ - * / // % **": r"\((\w+|[\d.e-]+) (\+|-|\*|/|//|%|\*\*) ",
    "& \\| ^ << >>": r"\((\w+|\d+) (&|\||\^|<<|>>) ", "~x": r"~\w", "unary -x": r"= -\w",
    "< <= > >= == !=": r"\(\w+ (<|<=|>|>=|==|!=) ",
    "not": r"\bnot ", "and": r" and ", "or": r" or ", "chained comparison": r"0 <= \w+ < ",
    "is (not) None": r" is not None",
    "x if c else y": r"\) if .* else \(",
    "builtin abs": r"[^.]abs\(", "len()": r"len\(",
    "int()/float()/bool()": r"\b(int|float|bool)\(RK\d+_K",
    "for range(n)": r"for k\d+ in range\(\w+\):", "range(a, b, step)": r"in range\(\w+, \w+, [\w.()]+\):",
    "nested loops": r"^        +(for|while) ",
    "while": r"^\s+while ", "break": r"^\s+break$", "continue": r"^\s+continue$",
    "if/else": r"^\s+else:$", "elif": r"^\s+elif ", "pass": r"^\s+pass$",
    "bare return": r"^\s+return$",
    "helper, tuple return / unpacking": r"^\s+v\d+, v\d+ = rk\d+_h\d+\(",
    "augmented assignment": r"^\s+\w+ [-+*|^]= ", "annotated assignment": r"^\s+\w+: ct\.\w+ = ",
    "x[:, None] / t[None] / t[..., None]": r"\[(:, None|None|\.\.\., None)\]",
    "module-level constant": r"^RK\d+_K\d+ = ",
    "math.pi / math.e": r"math\.(pi|e)\b",
}
# Drawn in default mode only (outside what the reference models, or undefined on the GPU).
DEFAULT_ONLY = {"APPROX math": r"ct\.(exp|tanh)\([^\n]*APPROX"}


def count(seed, n, gpu_safe, patterns):
    counts = collections.Counter()
    for i in range(n):
        text = generate(seed, i, gpu_safe=gpu_safe).source
        for name, pattern in patterns.items():
            if re.search(pattern, text, re.M):
                counts[name] += 1
    return counts


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    default = count(args.seed, args.count, False, {**CONSTRUCTS, **DEFAULT_ONLY})
    safe = count(args.seed, args.count, True, CONSTRUCTS)
    print(f"programs holding each construct, of {args.count} per mode (seed {args.seed})\n")
    print("| construct | default | gpu_safe |\n|---|---:|---:|")
    missing = []
    for name in list(CONSTRUCTS) + list(DEFAULT_ONLY):
        in_safe = "-" if name in DEFAULT_ONLY else safe[name]
        print(f"| {name} | {default[name]} | {in_safe} |")
        if default[name] == 0:
            missing.append(f"{name} (default)")
        if name in CONSTRUCTS and safe[name] == 0:
            missing.append(f"{name} (gpu_safe)")
    if missing:
        print("\nnever drawn: " + ", ".join(missing))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
