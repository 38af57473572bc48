#!/usr/bin/env python3
"""Golden tests: every sample, transpiled with its sidecar signatures, against expected text.

    check_golden.py TILE2CU [--update]

For samples/NAME.py the expected files are tests/golden/NAME.ir, NAME.cu and NAME.cuh.
--update rewrites them; read the diff (git diff tests/golden) as a reviewer would.
"""
import difflib
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"


def transpile(tool, sample, outdir):
    ir = subprocess.run([tool, str(sample), "--emit=ir"], capture_output=True, text=True, cwd=ROOT)
    if ir.returncode != 0:
        return None, ir.stderr
    cu = outdir / (sample.stem + ".cu")
    run = subprocess.run([tool, str(sample), "-o", str(cu)], capture_output=True, text=True, cwd=ROOT)
    if run.returncode != 0:
        return None, run.stderr
    return {".ir": ir.stdout, ".cu": cu.read_text(), ".cuh": cu.with_suffix(".cuh").read_text()}, ""


def main():
    tool, update = sys.argv[1], "--update" in sys.argv[2:]
    samples = sorted((ROOT / "samples").glob("*.py"))
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for sample in samples:
            if not sample.with_suffix(".sigs").exists():
                continue
            outputs, err = transpile(tool, sample.relative_to(ROOT), pathlib.Path(tmp))
            if outputs is None:
                print(f"FAIL {sample.name}: tile2cu rejected it\n{err}")
                failed += 1
                continue
            ok = True
            for ext, text in outputs.items():
                expected_path = GOLDEN / (sample.stem + ext)
                if update:
                    expected_path.write_text(text)
                    continue
                expected = expected_path.read_text() if expected_path.exists() else ""
                if text != expected:
                    ok = False
                    diff = difflib.unified_diff(expected.splitlines(True), text.splitlines(True),
                                                str(expected_path.relative_to(ROOT)), "actual", n=2)
                    sys.stdout.writelines(list(diff)[:80])
            if ok:
                passed += 1
            else:
                print(f"FAIL {sample.name}: output differs from tests/golden (scripts/update-golden.sh regenerates)")
                failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
