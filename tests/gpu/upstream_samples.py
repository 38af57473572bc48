#!/usr/bin/env python3
"""cuTile's own samples, unchanged, through tile2cu on the GPU (issue 23, item 2).

Usage: upstream_samples.py UPSTREAM_DIR [--jobs N] [--timeout S] [--only SUBSTR] [--log DIR]

Runs each UPSTREAM_DIR/samples/*.py (cutile-python's samples) as cuTile's own
samples/test_samples.py does: `python -u SAMPLE --correctness-check`, but through
`python -m tile2cu run` (PYTHONPATH must reach python/, TILE2CU_BIN the binary), and judges it
by the same rule: exit 0, no "An unexpected error occurred", and "Correctness check passed"
present unless the sample printed "Skipped test". Every sample runs with its own kernel
cache folder beside the others' (one cache for the whole call). Prints one row per sample:
verdict, seconds, and for failures the last line that names an error. With --log DIR, each
sample's whole output goes to DIR/<sample>.log.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import time

ERROR_RE = re.compile(r"(Error|error|failed|Failed|Traceback|mismatch|not close)")


def verdict(returncode, output):
    if returncode != 0:
        return "FAIL"
    if "An unexpected error occurred" in output:
        return "FAIL"
    if "Skipped test" in output:
        return "skip"
    if "Correctness check failed" in output or "Correctness check passed" not in output:
        return "FAIL"
    return "pass"


def cause(output):
    lines = [l.strip() for l in output.splitlines() if l.strip()]
    for line in reversed(lines):
        if ERROR_RE.search(line):
            return line[:160]
    return lines[-1][:160] if lines else ""


def run_sample(path, timeout, log_dir):
    name = os.path.basename(path)
    start = time.time()
    cmd = [sys.executable, "-u", "-m", "tile2cu", "run", path, "--correctness-check"]
    try:
        p = subprocess.run(cmd, cwd=os.path.dirname(path), capture_output=True, text=True, timeout=timeout)
        output, code = p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired as e:
        output = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        output += f"\n[timed out after {timeout} s]"
        code = -1
    seconds = time.time() - start
    if log_dir:
        with open(os.path.join(log_dir, name[:-3] + ".log"), "w") as f:
            f.write(output)
    v = verdict(code, output)
    return name, v, seconds, "" if v == "pass" else cause(output)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("upstream")
    ap.add_argument("--jobs", type=int, default=4)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--only")
    ap.add_argument("--log")
    args = ap.parse_args()
    samples_dir = os.path.join(os.path.abspath(args.upstream), "samples")
    samples = sorted(os.path.join(samples_dir, f) for f in os.listdir(samples_dir)
                     if f[0].isupper() and f.endswith(".py"))
    if args.only:
        samples = [s for s in samples if args.only in os.path.basename(s)]
    if args.log:
        os.makedirs(args.log, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(lambda s: run_sample(s, args.timeout, args.log), samples))
    print(f"{'sample':<24} {'verdict':<7} {'s':>6}  cause")
    for name, v, seconds, why in rows:
        print(f"{name:<24} {v:<7} {seconds:6.1f}  {why}")
    passed = sum(v == "pass" for _, v, _, _ in rows)
    print(f"{passed}/{len(rows)} passed")
    return 0 if passed == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
