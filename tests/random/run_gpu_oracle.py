#!/usr/bin/env python3
"""Random kernels' results on the GPU against a NumPy reference interpreter (issue 26, oracle 3).

    run_gpu_oracle.py TILE2CU --seed S --count N [--jobs J] [--keep DIR]
    run_gpu_oracle.py TILE2CU --seed S --only I --keep DIR        one program again
    run_gpu_oracle.py TILE2CU --cpu-check [--no-build] ...         everything but the GPU run

Programs come from the generator's gpu_safe mode (tilegen.generate(seed, i, gpu_safe=True)).
Each is transpiled; the accepted ones are built as run_random.py builds them (one module and one
.cu per batch of --batch-size kernels), here with `nvcc -shared -Xcompiler -fPIC` for --arch
(sm_90a), and loaded with ctypes. For each program the reference makes one case (grid, extents,
random inputs, outputs poisoned: reference/inputs.py) and runs the kernel on it twice (exact
and perturbed: reference/numerics.py); the GPU runs the C entry on the same inputs
(gpu_worker.py: one process, restarted after a kernel that breaks the CUDA context, which
is reported), and reference/compare.py judges every written element.

Outcomes per program: matched; MISMATCH (a finding: the program is kept with its reproduction
command); undefined (the reference met behaviour cuTile leaves undefined on these inputs: not
compared, counted); and, as findings too, a transpile rejection or crash, an nvcc failure, a
launch error, or a reference crash (a construct the reference does not model).

Without a GPU (no torch, or torch sees no CUDA device) and without --cpu-check it prints
"no GPU: skipped" and exits 0. --cpu-check runs all but the GPU: generation, transpilation,
the nvcc builds (unless --no-build) and both reference runs of every program, so crashes of the
reference on generated programs are found without a GPU (CTest random_reference).
Exit status: 0 no finding, 1 a finding, 77 NumPy missing and no environment could be made."""
import argparse
import collections
import concurrent.futures
import json
import os
import pathlib
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import zlib

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
from tilegen import oracle  # noqa: E402
from tilegen.generator import generate  # noqa: E402

REQUIREMENTS = HERE / "reference" / "requirements.txt"
REGRESSIONS = HERE / "regressions"


# ---- environment -------------------------------------------------------------------------------
def ensure_numpy(venv):
    """Re-runs this script in `venv` (made with reference/requirements.txt on first use) when
    this Python has no NumPy; exits 77 when that cannot be done."""
    try:
        import numpy  # noqa: F401
        return
    except ImportError:
        pass
    if os.environ.get("TILE2CU_REFERENCE_VENV") or not venv:
        print("SKIPPED: NumPy is not installed (pass --venv DIR to make an environment)")
        sys.exit(77)
    venv = pathlib.Path(venv)
    py = venv / "bin" / "python"
    stamp = venv / "tile2cu-requirements.txt"
    wanted = REQUIREMENTS.read_text()
    if not (py.exists() and stamp.exists() and stamp.read_text() == wanted):
        print(f"installing NumPy into {venv} ({REQUIREMENTS.relative_to(ROOT)}) ...", flush=True)
        for cmd in ([sys.executable, "-m", "venv", "--clear", str(venv)],
                    [str(py), "-m", "pip", "install", "--disable-pip-version-check", "-q", "-r", str(REQUIREMENTS)]):
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                print(f"SKIPPED: could not make {venv}: {' '.join(cmd[:4])} ... exited {r.returncode}\n"
                      + (r.stdout + r.stderr)[-2000:])
                sys.exit(77)
        stamp.write_text(wanted)
    env = dict(os.environ, TILE2CU_REFERENCE_VENV=str(venv))
    sys.stdout.flush()
    os.execve(str(py), [str(py), __file__, *sys.argv[1:]], env)


def gpu_available():
    try:
        import torch
        return torch.cuda.is_available()
    except Exception:  # noqa: BLE001 (no torch, a broken install: no GPU either way)
        return False


# ---- programs ----------------------------------------------------------------------------------
class Program:
    def __init__(self, seed, index, regression=None):
        if regression is None:
            g = generate(seed, index, gpu_safe=True)
            self.index, self.name, self.source, self.sig = index, g.name, g.source, g.signature
            self.case_seed = seed * 1_000_003 + index
            self.origin = f"seed {seed} program {index}"
        else:
            self.index, self.source = None, regression.read_text()
            self.name = re.search(r"^@ct\.kernel\s*\ndef (\w+)\(", self.source, re.M).group(1)
            self.sig = re.search(r"^# sig: (.*)$", self.source, re.M).group(1).strip()
            self.case_seed = zlib.crc32(self.name.encode())
            self.origin = str(regression.relative_to(ROOT))
        self.status = "generated"   # -> transpiled / built / matched / mismatched / undefined / finding
        self.detail = ""
        self.library = None
        self.params = None


def gpu_regressions():
    """The shrunk programs of regressions/ that carry an `# extents:` header (how make_case
    reaches each array): results a GPU run once got wrong, replayed before the generated
    programs of every run (argmax_of_nan_row.py: seed 20261128 program 2335)."""
    return [Program(None, None, path) for path in sorted(REGRESSIONS.glob("*.py"))
            if re.search(r"^# extents: ", path.read_text(), re.M)]


def reference_job(args):
    """In a worker process: make the case, run both reference runs, save them for the GPU."""
    source, name, sig, case_seed, save_to = args
    import numpy as np
    import reference
    started = time.monotonic()
    try:
        case = reference.make_case(source, sig, case_seed)
        expected = reference.run_case(source, name, case, seed=case_seed)
    except reference.UndefinedBehaviour as e:
        return "undefined", str(e), time.monotonic() - started
    except Exception as e:  # noqa: BLE001 (a crash of the reference is a finding, reported)
        tb = traceback.extract_tb(e.__traceback__)
        where = next((f"{f.name} line {f.lineno}" for f in reversed(tb) if f.filename.startswith("<")), "")
        return "reference crash", f"{type(e).__name__}: {e} ({where}; {tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno})", \
            time.monotonic() - started
    if save_to:
        meta = {"grid": list(case.grid), "outputs": case.outputs,
                "scalars": {n: [d, v] for n, (d, v) in case.scalars.items()}}
        arrays = {f"in_{n}": a for n, (_, a) in case.arrays.items()}
        arrays.update({f"exact_{n}": a for n, a in expected.exact.items()})
        arrays.update({f"perturbed_{n}": a for n, a in expected.perturbed.items()})
        arrays.update({f"mirrored_{n}": a for n, a in expected.mirrored.items()})
        arrays.update({f"racy_{n}": a for n, a in expected.racy.items()})
        np.savez(save_to, meta=np.array(json.dumps(meta)), **arrays)
    return "ok", "", time.monotonic() - started


def kernel_params(source, name):
    import ast
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return [a.arg for a in node.args.args]
    raise ValueError(f"no kernel {name}")


# ---- builds ------------------------------------------------------------------------------------
def build_batch(tool, nvcc, arch, work, number, programs):
    """One .so for a batch; culprits of a failing build are dropped and the rest rebuilt once."""
    pending = list(programs)
    for attempt in range(2):
        stem = work / f"batch{number}_{attempt}"
        outcome = oracle.transpile_batch(tool, stem, pending)
        if outcome.kind != "ok":
            for p in pending:
                p.status, p.detail = "finding", f"batch transpile {outcome.kind}: {outcome.error_class} {outcome.message}"
            return
        num = arch.removeprefix("sm_")
        cmd = [nvcc, "-std=c++17", "-O3", "-shared", "-Xcompiler", "-fPIC",
               f"-gencode=arch=compute_{num},code=sm_{num}", "-I", str(ROOT / "runtime"),
               str(stem.with_suffix(".cu")), "-o", str(stem.with_suffix(".so"))]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode == 0:
            for p in pending:
                p.status, p.library = "built", str(stem.with_suffix(".so"))
            return
        log = r.stdout + r.stderr
        by_kernel = oracle.errors_by_kernel(stem.with_suffix(".cu").read_text(), stem.name + ".cu", log)
        culprits = [p for p in pending if p.name in by_kernel] or pending
        for p in culprits:
            p.status = "finding"
            p.detail = "nvcc: " + oracle.nvcc_errors("\n".join(by_kernel.get(p.name, [log])))[0]
        pending = [p for p in pending if p not in culprits]
        if not pending:
            return


# ---- the GPU -----------------------------------------------------------------------------------
def run_on_gpu(programs, work):
    """gpu_worker.py over the programs (one process: torch and CUDA start once); a worker that
    dies is restarted after the program it died on, which is reported as a GPU failure."""
    todo = list(programs)
    while todo:
        job = work / f"{todo[0].name}.job.json"
        job.write_text(json.dumps({"programs": [
            {"name": p.name, "library": p.library, "params": p.params, "sig": p.sig,
             "case": str(work / f"{p.name}.case.npz"), "out": str(work / f"{p.name}.gpu.npz")} for p in todo]}))
        r = subprocess.run([sys.executable, str(HERE / "gpu_worker.py"), str(job)], capture_output=True, text=True)
        rest = [p for p in todo if not (work / f"{p.name}.gpu.npz").exists()]
        if not rest:
            break
        crashed = rest[0]
        crashed.status = "finding"
        tail = (r.stderr.strip().splitlines() or ["(no message)"])[-1]
        crashed.detail = f"GPU run failed (worker exit {r.returncode}): {tail}"
        todo = rest[1:]


def judge(p, work):
    import numpy as np
    from reference import compare
    case = np.load(work / f"{p.name}.case.npz")
    gpu = np.load(work / f"{p.name}.gpu.npz")
    meta = json.loads(str(case["meta"]))
    if int(gpu["rc"]) != 0:
        p.status, p.detail = "finding", f"the entry returned cudaError {int(gpu['rc'])}"
        return
    from reference.inputs import parse_signature
    sig = parse_signature(p.sig)
    problems, unstable = [], 0
    for n in meta["outputs"]:
        bad, shaky, first = compare.compare_array(sig[n][1], gpu[f"out_{n}"], case[f"exact_{n}"],
                                                  case[f"perturbed_{n}"], case[f"racy_{n}"],
                                                  case[f"mirrored_{n}"] if f"mirrored_{n}" in case else None)
        unstable += shaky
        if bad:
            problems.append(f"{n}: {bad} element(s) differ, first {first}")
    p.status = "mismatched" if problems else "matched"
    p.detail = "; ".join(problems) + (f" ({unstable} unstable elements skipped)" if unstable else "")


# ---- the run -----------------------------------------------------------------------------------
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tool", help="the tile2cu binary")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--only", type=int, help="run program I of the seed only")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--batch-size", type=int, default=25)
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    ap.add_argument("--keep", help="directory for the programs, libraries, cases and results")
    ap.add_argument("--findings-dir", help="copy each finding's program (and its case) here, e.g. under $OUT")
    ap.add_argument("--cpu-check", action="store_true", help="everything but the GPU run")
    ap.add_argument("--no-build", action="store_true", help="with --cpu-check: no nvcc builds")
    ap.add_argument("--venv", help="where to make a NumPy environment when this Python has none")
    ap.add_argument("--no-regressions", action="store_true",
                    help="skip the regressions/ programs with an `# extents:` header (run first by default)")
    ap.add_argument("--unit-tests", action="store_true",
                    help="first run the reference's own tests (pytest test_reference.py)")
    args = ap.parse_args()
    on_gpu = not args.cpu_check
    if on_gpu and not gpu_available():
        print("no GPU: skipped (torch with a CUDA device is needed; --cpu-check runs the rest)")
        return 0
    ensure_numpy(args.venv)
    if args.unit_tests:
        r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                            str(HERE / "test_reference.py")])
        if r.returncode != 0:
            print("the reference's unit tests failed")
            return 1
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10 ** 9)
    indices = [args.only] if args.only is not None else list(range(args.count))
    build = not (args.cpu_check and args.no_build)
    if build and not os.path.exists(args.nvcc):
        print(f"nvcc not found ({args.nvcc}): pass --nvcc, or --cpu-check --no-build")
        return 1
    work = pathlib.Path(args.keep or tempfile.mkdtemp(prefix="tile2cu-gpu-oracle-"))
    work.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    reproduce = f"{pathlib.Path(__file__).name} TILE2CU --seed {seed} --count {args.count}"
    print(f"gpu oracle: seed {seed}, {len(indices)} programs, {'GPU' if on_gpu else 'CPU check'}"
          f"{'' if build else ', no builds'} (reproduce: {reproduce})", flush=True)

    replayed = [] if args.no_regressions or args.only is not None else gpu_regressions()
    programs = replayed + [Program(seed, i) for i in indices]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        def transpile(p):
            path = work / f"{p.name}.py"
            path.write_text(p.source)
            o = oracle.transpile(args.tool, path, p.sig, work / f"{p.name}.cu")
            if o.kind == "ok":
                p.status = "transpiled"
            elif o.kind == "refused":
                p.status, p.detail = "refused", f"{o.error_class}: {o.message}"
            else:
                p.status, p.detail = "finding", f"transpile {o.kind}: {o.error_class}: {o.message}"
        list(pool.map(transpile, programs))
    accepted = [p for p in programs if p.status == "transpiled"]
    print(f"transpiled {len(accepted)} of {len(programs)} in {time.monotonic() - started:.0f} s", flush=True)

    # the reference (CPU-bound: processes) while nvcc builds (threads running nvcc processes)
    ref_pool = concurrent.futures.ProcessPoolExecutor(max(1, args.jobs))
    futures = {p.name: ref_pool.submit(reference_job, (p.source, p.name, p.sig, p.case_seed,
                                                       str(work / f"{p.name}.case.npz") if on_gpu else None))
               for p in accepted}
    if build:
        batches = [accepted[i:i + args.batch_size] for i in range(0, len(accepted), args.batch_size)]
        t0 = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            list(pool.map(lambda nb: build_batch(args.tool, args.nvcc, args.arch, work, *nb), enumerate(batches)))
        print(f"built {sum(p.status == 'built' for p in accepted)} of {len(accepted)} in "
              f"{len(batches)} libraries ({time.monotonic() - t0:.0f} s)", flush=True)
    ref_seconds, t0 = 0.0, time.monotonic()
    for p in accepted:
        verdict, message, seconds = futures[p.name].result()
        ref_seconds += seconds
        if verdict == "undefined":
            p.status, p.detail = "undefined", message
        elif verdict != "ok":
            p.status, p.detail = "finding", f"{verdict}: {message}"
        elif not build:
            p.status = "reference ok"
    ref_pool.shutdown()
    print(f"reference: {sum(p.status not in ('undefined', 'finding') for p in accepted)} ran, "
          f"{sum(p.status == 'undefined' for p in accepted)} undefined on their inputs "
          f"({ref_seconds:.0f} s of CPU, {time.monotonic() - t0:.0f} s waited after the builds)", flush=True)

    if on_gpu:
        runnable = [p for p in accepted if p.status == "built"]
        for p in runnable:
            p.params = [q for q in kernel_params(p.source, p.name)]
        t0 = time.monotonic()
        run_on_gpu(runnable, work)
        for p in runnable:
            if p.status == "built":
                judge(p, work)
        print(f"GPU runs and comparisons: {time.monotonic() - t0:.0f} s", flush=True)

    counts = collections.Counter(p.status for p in programs)
    table = [("generated", len(programs) - len(replayed)), ("regressions replayed (counted below too)", len(replayed)),
             ("transpiled", len(accepted)),
             ("refused (documented)", counts["refused"])]
    if build:
        table.append(("built", sum(p.library is not None for p in accepted)))
    table.append(("undefined on their inputs (not compared)", counts["undefined"]))
    if on_gpu:
        table += [("matched", counts["matched"]), ("mismatched", counts["mismatched"])]
    else:
        table.append(("reference ran", counts["reference ok"] + counts["built"]))
    table.append(("other findings", counts["finding"]))
    print("\n| programs | count |\n|---|---:|")
    for label, n in table:
        print(f"| {label} | {n} |")
    findings = [p for p in programs if p.status in ("mismatched", "finding")]
    for p in findings:
        again = f"--seed {seed} --only {p.index}" if p.index is not None else "--count 0"
        print(f"\nFINDING {p.name} ({p.origin}): {p.detail}\n  kept: {work / (p.name + '.py')}\n"
              f"  reproduce: python3 tests/random/run_gpu_oracle.py TILE2CU {again} "
              f"--keep DIR{' --cpu-check' if not on_gpu else ''}")
    if args.findings_dir and findings:
        dest = pathlib.Path(args.findings_dir)
        dest.mkdir(parents=True, exist_ok=True)
        for p in findings:
            for suffix in (".py", ".case.npz", ".gpu.npz"):
                if (work / (p.name + suffix)).exists():
                    shutil.copy(work / (p.name + suffix), dest)
        (dest / "findings.txt").write_text("".join(f"{p.origin} {p.name}: {p.detail}\n"
                                                   for p in findings))
    undefined = collections.Counter(p.detail.split(" of ")[0][:60] for p in programs if p.status == "undefined")
    for reason, n in undefined.most_common(8):
        print(f"undefined ({n}): {reason}")
    print(f"\n{len(findings)} finding(s) in {time.monotonic() - started:.0f} s (seed {seed})")
    if not args.keep and not findings:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
