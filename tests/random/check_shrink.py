#!/usr/bin/env python3
"""The shrinker works: a generated program holding an mma, shrunk while it still transpiles and
still holds an mma, ends small (the mma, the loads it needs, the store), still transpiles, and
has lost the signature entries of the parameters it dropped.

    check_shrink.py TILE2CU

Needs no nvcc: the property shrunk for is checked with tile2cu alone, so this runs everywhere."""
import pathlib
import re
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from tilegen import oracle  # noqa: E402
from tilegen.generator import generate  # noqa: E402
from tilegen.shrink import shrink  # noqa: E402

SEED = 7
MARKER = "ct.mma("


def main():
    tool = sys.argv[1]
    program = next(p for p in (generate(SEED, i) for i in range(500))
                   if MARKER in p.source and len(p.source.splitlines()) > 25)
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "c.py"

        def keeps_marker(source, sig):
            path.write_text(source)
            return MARKER in source and oracle.transpile(tool, path, sig, path.with_suffix(".cu")).kind == "ok"

        if not keeps_marker(program.source, program.signature):
            print(f"FAIL: {program.name} does not transpile to begin with")
            return 1
        small, sig = shrink(program.source, program.signature, keeps_marker, log=lambda _: None)
        body = [line for line in small.splitlines() if line.startswith("    ")]
        params = re.search(r"^def \w+\((.*)\):$", small, re.M).group(1)
        problems = []
        if not keeps_marker(small, sig):
            problems.append("the shrunk program lost the property")
        if len(body) > 6:
            problems.append(f"{len(body)} statements left, expected at most 6")
        if len(sig.split("=")) - 1 != len([p for p in params.split(",") if p.strip()]):
            problems.append(f"signature {sig!r} does not match the parameters ({params})")
        if f"# sig: {sig}" not in small:
            problems.append("the # sig: header was not updated")
    print(f"{program.name}: {len(program.source.splitlines())} lines -> {len(small.splitlines())}")
    for p in problems:
        print("FAIL:", p)
    if problems:
        print(small)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
