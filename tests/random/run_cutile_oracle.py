#!/usr/bin/env python3
"""Oracle 2 for random kernels (issue 26): real cuTile and tile2cu give the same verdict.

    run_cutile_oracle.py TILE2CU [--venv DIR] [--seed N] [--count M] [--arch sm_90] [--keep DIR]

Each program of run_random.py's generator (same seed, same text) goes to tile2cu and to real
cuTile's ahead-of-time compiler (`export_kernel`, through tests/cutile_diff/run_diff.py's
cutile_compile, on the CPU). They agree when both accept, or both reject with the same error
class; tile2cu's documented "not supported yet" refusals are allowed. A kernel cuTile rejects
is either a gap in the generator's typing model or a kernel tile2cu should reject; one tile2cu
rejects and cuTile accepts is a tile2cu bug. Every disagreement is printed with its messages.

Runs under the virtual environment of tests/cutile_diff/cutile_env.py (made on first use);
exits 77 when it cannot be made. Exit 1 on a disagreement."""
import argparse
import collections
import pathlib
import random
import shutil
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(HERE), str(ROOT / "tests" / "cutile_diff"), str(ROOT / "python")]

import cutile_env  # noqa: E402

# cuTile errors raised after its front end accepted the kernel (tileiras failed or timed out).
BACKEND_FAILURES = ("TileCompilerExecutionError", "TileCompilerTimeoutError", "Timeout")
from tilegen import oracle  # noqa: E402
from tilegen.generator import generate  # noqa: E402


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tool")
    ap.add_argument("--venv", default=str(ROOT / "build" / "cutile-venv"))
    ap.add_argument("--seed", type=int)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--keep")
    args = ap.parse_args(argv)
    cutile_env.reexec_in_venv(pathlib.Path(args.venv), __file__, argv)
    from run_diff import cutile_compile  # needs cuda.tile: only inside the environment

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10 ** 9)
    print(f"random kernels against real cuTile: seed {seed}, {args.count} programs, {args.arch}")
    work = pathlib.Path(args.keep or tempfile.mkdtemp(prefix="tile2cu-random-cutile-"))
    work.mkdir(parents=True, exist_ok=True)
    tally, disagreements = collections.Counter(), []
    for i in range(args.count):
        program = generate(seed, i)
        path = work / f"{program.name}.py"
        path.write_text(program.source)
        ours = oracle.transpile(args.tool, path, program.signature, work / f"{program.name}.cu")
        accepted, cls, message, _ = cutile_compile(path, program.signature, program.name, args.arch)
        theirs = "ok" if accepted else cls
        mine = "ok" if ours.kind == "ok" else (ours.error_class or ours.kind)
        if cls in BACKEND_FAILURES:
            # cuTile's front end accepted it and its closed back end failed: no verdict on the
            # language to compare, but worth knowing (kept with --keep).
            tally["cuTile back end failed"] += 1
            print(f"note: {program.name}: cuTile {cls}: {message}")
        elif mine == theirs:
            tally["agree: " + mine] += 1
        elif ours.kind == "refused":
            tally["tile2cu not supported yet"] += 1
        else:
            tally["disagree"] += 1
            disagreements.append((program.name, f"tile2cu {mine}: {ours.message}", f"cuTile {theirs}: {message}"))
    for name, mine, theirs in disagreements:
        print(f"DISAGREE {name} (kept {work / name}.py)\n  {mine}\n  {theirs}")
    print(", ".join(f"{k} {v}" for k, v in sorted(tally.items())) + f" (seed {seed})")
    if not args.keep and not disagreements:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
