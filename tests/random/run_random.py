#!/usr/bin/env python3
"""Random well-typed cuTile kernels through tile2cu and nvcc (issue 26, oracle 1).

    run_random.py TILE2CU [--seed N] [--count M] [--build-count B] [--nvcc PATH] [--keep DIR]
    run_random.py TILE2CU --shrink FILE [--out FILE]     reduce one failing program
    run_random.py TILE2CU --regressions-only             replay tests/random/regressions/ only

Every run first replays tests/random/regressions/, then generates M programs from the seed
(a fresh one, printed, unless --seed is given; program i of seed N is always the same text),
transpiles each one, and builds the first B accepted ones (plus the regressions) with nvcc for
sm_80 and sm_90a, in batches of --batch-size kernels per translation unit.

Exit status: 0 all good; 1 a finding (printed with the command that reproduces it, the program
kept under --keep); 77 nvcc is not installed, or TILE2CU_TEST_NO_NVCC is set to anything but 0
(scripts/sanitize.sh: the sanitizers instrument tile2cu, not nvcc); transpilation was still
checked and passed."""
import argparse
import collections
import os
import pathlib
import random
import re
import shutil
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from tilegen import oracle  # noqa: E402
from tilegen.generator import generate  # noqa: E402
from tilegen.shrink import shrink  # noqa: E402

ROOT = HERE.parents[1]
RUNTIME = ROOT / "runtime"
REGRESSIONS = HERE / "regressions"
KNOWN_FINDINGS = HERE / "known_findings.txt"


class Program:
    """One kernel under test: generated (seed, index) or a regression file."""

    def __init__(self, name, source, sig, origin, expect="ok"):
        self.name, self.source, self.sig, self.origin, self.expect = name, source, sig, origin, expect
        self.outcome = None       # transpile Outcome
        self.built = False        # nvcc built it
        self.build_errors = []    # what nvcc said about it (attributed to its section)

    def symptoms(self):
        """What went wrong with this program, one line each (empty: nothing)."""
        if self.outcome.failed:
            return [f"transpile {self.outcome.kind}: {self.outcome.error_class}: {self.outcome.message}"]
        return [f"nvcc: {e}" for e in self.build_errors]


def load_known_findings():
    """Open bugs, each with its shrunk regression: {text a finding contains: regression file}.

    A generated program that hits one is counted, not failed; the regression file itself still
    has to fail exactly so (its `# expect:` line), and passes once the bug is fixed."""
    known = {}
    for line in KNOWN_FINDINGS.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            text, regression = (part.strip() for part in line.split("|"))
            known[text] = regression
    return known


def header(source, key):
    m = re.search(rf"^# {key}: (.*)$", source, re.M)
    return m.group(1).strip() if m else None


def load_regressions():
    programs = []
    for i, path in enumerate(sorted(REGRESSIONS.glob("*.py"))):
        source = path.read_text()
        name = re.search(r"^@ct\.kernel\s*\ndef (\w+)\(", source, re.M).group(1)
        # Distinct kernel names inside a batch: regressions are renamed rg<i>.
        new = f"rg{i}"
        source = re.sub(rf"\b{name}(?=\b|_h\d)", new, source)
        programs.append(Program(new, source, header(source, "sig"), str(path.relative_to(ROOT)),
                                header(source, "expect") or "ok"))
    return programs


def find_nvcc(arg):
    if os.environ.get("TILE2CU_TEST_NO_NVCC", "0") not in ("", "0"):
        return None
    nvcc = arg or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    return nvcc if os.path.exists(nvcc) else None


def transpile_all(tool, programs, work):
    for p in programs:
        path = work / f"{p.name}.py"
        path.write_text(p.source)
        p.outcome = oracle.transpile(tool, path, p.sig, work / f"{p.name}.cu")


def build_batches(tool, nvcc, programs, work, batch_size, deadline, log):
    """nvcc over batches of accepted programs; a failing batch is rebuilt without its culprits.
    No batch starts after `deadline` (time.monotonic()); the programs left are not built."""
    for b in range(0, len(programs), batch_size):
        if time.monotonic() > deadline:
            log(f"  build budget spent: {len(programs) - b} accepted programs not built")
            break
        pending = programs[b:b + batch_size]
        for attempt in range(3):
            if not pending:
                break
            stem = work / f"batch{b // batch_size}_{attempt}"
            outcome = oracle.transpile_batch(tool, stem, pending)
            if outcome.kind != "ok":
                for p in pending:
                    p.build_errors = [f"batch transpile {outcome.kind}: {outcome.error_class} {outcome.message}"]
                break
            started = time.monotonic()
            ok, text = oracle.nvcc_build(nvcc, RUNTIME, stem.with_suffix(".cu"), stem.with_suffix(".o"))
            log(f"  nvcc batch {b // batch_size} ({len(pending)} kernels): "
                f"{'ok' if ok else 'FAILED'} in {time.monotonic() - started:.0f} s")
            if ok:
                for p in pending:
                    p.built = True
                break
            by_kernel = oracle.errors_by_kernel(stem.with_suffix(".cu").read_text(), stem.name + ".cu", text)
            if not by_kernel:
                for p in pending:
                    p.build_errors = ["(unattributed) " + oracle.first_nvcc_error(text)]
                (work / f"{stem.name}.log").write_text(text)
                break
            for p in pending:
                if p.name in by_kernel:
                    p.build_errors = oracle.nvcc_errors("\n".join(by_kernel[p.name]))
            pending = [p for p in pending if p.name not in by_kernel]


def verdict(p, known, built):
    """(new findings, known findings) of a program: a generated one may hit only known bugs;
    a regression must fail as its `# expect:` line says, or pass when it says ok. Without nvcc
    (`built` False) a regression expecting an nvcc symptom is only checked to transpile."""
    symptoms = p.symptoms()
    if p.expect.startswith("nvcc:") and not built:
        return ([] if p.outcome.kind == "ok" else symptoms), []
    if p.expect != "ok":
        if not symptoms:
            return [f"passes now although marked '# expect: {p.expect}': set '# expect: ok'"], []
        if not any(p.expect in s for s in symptoms):
            return [f"expected '{p.expect}', got: {'; '.join(symptoms)}"], []
        return [], []
    # A generated program whose first symptom is a known bug is counted as known (what follows
    # it is often a consequence: a call that no longer matches once an argument failed).
    match = next((k for k in known if symptoms and k in symptoms[0]), None)
    if match and p.origin.startswith("seed"):
        return [], [match]
    return symptoms, []


def run(args):
    tool = args.tool
    nvcc = find_nvcc(args.nvcc)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10 ** 9)
    if args.regressions_only:
        args.count = 0
    print(f"random kernels: seed {seed}, {args.count} programs, build up to {args.build_count if nvcc else 0}"
          f" (reproduce: {pathlib.Path(__file__).name} TILE2CU --seed {seed} --count {args.count})")
    work = pathlib.Path(args.keep) if args.keep else pathlib.Path(tempfile.mkdtemp(prefix="tile2cu-random-"))
    work.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    regressions = load_regressions()
    generated = [] if args.regressions_only else \
        [Program(g.name, g.source, g.signature, f"seed {seed} program {i}")
         for i, g in enumerate(generate(seed, i) for i in range(args.count))]
    programs = regressions + generated
    transpile_all(tool, programs, work)
    counts = collections.Counter(p.outcome.kind for p in generated)
    classes = collections.Counter(f"{p.outcome.kind} {p.outcome.error_class}" for p in generated
                                  if p.outcome.kind != "ok")
    print(f"transpiled {counts['ok']} of {len(generated)} in {time.monotonic() - started:.1f} s; "
          f"not transpiled, by class: {dict(classes) or 0}; regressions: {len(regressions)}")
    if nvcc:
        accepted = [p for p in regressions if not p.outcome.failed] + \
            [p for p in generated if p.outcome.kind == "ok"][:args.build_count]
        build_batches(tool, nvcc, accepted, work, args.batch_size, started + args.build_budget_s, print)
        built = sum(p.built for p in generated)
        print(f"built {built} generated kernels with nvcc (sm_80 + sm_90a), "
              f"{sum(bool(p.build_errors) for p in generated)} failed")
    known = load_known_findings()
    problems, tolerated = [], collections.Counter()
    for p in programs:
        new, old = verdict(p, known, built=nvcc is not None)
        if new:
            problems.append((p, "; ".join(new)))
        tolerated.update(old)
    for p, v in problems:
        kept = work / f"{p.name}.py"
        print(f"FINDING {p.name} ({p.origin}): {v}\n  kept: {kept}\n"
              f"  shrink: {pathlib.Path(__file__).name} TILE2CU --shrink {kept}")
    for finding, n in tolerated.items():
        print(f"known finding ({known[finding]}), {n} program(s): {finding}")
    print(f"{len(problems)} new finding(s), {sum(tolerated.values())} known, "
          f"in {time.monotonic() - started:.0f} s (seed {seed})")
    if not args.keep and not problems:
        shutil.rmtree(work, ignore_errors=True)
    if problems:
        return 1
    if not nvcc:
        print("no nvcc (not found, or TILE2CU_TEST_NO_NVCC): transpilation checked, builds skipped")
        return 77
    return 0


def shrink_file(args):
    """Shrink one kept program while it fails the way it fails now."""
    tool, nvcc = args.tool, find_nvcc(args.nvcc)
    path = pathlib.Path(args.shrink)
    source = path.read_text()
    sig = header(source, "sig")
    work = pathlib.Path(tempfile.mkdtemp(prefix="tile2cu-shrink-"))
    name = re.search(r"^@ct\.kernel\s*\ndef (\w+)\(", source, re.M).group(1)
    tries = [0]

    def symptoms(candidate, candidate_sig):
        """Everything wrong with a candidate: its transpile failure, or each nvcc error."""
        tries[0] += 1
        (work / "c.py").write_text(candidate)
        outcome = oracle.transpile(tool, work / "c.py", candidate_sig, work / "c.cu")
        if outcome.failed:
            return [("transpile",) + outcome.signature()]
        if outcome.kind != "ok" or not nvcc:
            return []
        ok, text = oracle.nvcc_build(nvcc, RUNTIME, work / "c.cu", work / "c.o")
        return [] if ok else [("nvcc", e) for e in oracle.nvcc_errors(text)]

    found = symptoms(source, sig)
    if not found:
        print(f"{path}: does not fail; nothing to shrink")
        return 1
    # Keep the first symptom; others (an unused variable a deletion leaves) may come and go.
    target = found[0]
    print(f"{path}: fails with {target}")
    small, small_sig = shrink(source, sig, lambda s, g: target in symptoms(s, g))
    out = pathlib.Path(args.out) if args.out else path.with_name(path.stem + "_shrunk.py")
    out.write_text(small)
    print(f"{tries[0]} candidates tried; kernel {name}; wrote {out}")
    shutil.rmtree(work, ignore_errors=True)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tool", help="the tile2cu binary")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--count", type=int, default=int(os.environ.get("TILE2CU_RANDOM_COUNT", 200)))
    ap.add_argument("--build-count", type=int, default=int(os.environ.get("TILE2CU_RANDOM_BUILD", 200)),
                    help="how many accepted programs to build with nvcc")
    ap.add_argument("--batch-size", type=int, default=25)
    ap.add_argument("--build-budget-s", type=float, default=float(os.environ.get("TILE2CU_RANDOM_BUDGET_S", 1e9)),
                    help="start no nvcc batch after this many seconds of the run")
    ap.add_argument("--nvcc")
    ap.add_argument("--keep", help="directory to keep the programs, .cu files and logs in")
    ap.add_argument("--regressions-only", action="store_true")
    ap.add_argument("--shrink", help="a kept program to reduce")
    ap.add_argument("--out", help="where --shrink writes the reduced program")
    args = ap.parse_args()
    return shrink_file(args) if args.shrink else run(args)


if __name__ == "__main__":
    sys.exit(main())
