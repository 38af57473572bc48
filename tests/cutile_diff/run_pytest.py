#!/usr/bin/env python3
"""Runs tests/cutile_diff/test_signatures.py with pytest inside the cuTile environment
(tests/cutile_diff/cutile_env.py; exit 77 = skipped when it cannot be made).

    run_pytest.py [--venv DIR] [pytest arguments]
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import cutile_env  # noqa: E402


def main(argv):
    venv = HERE.parents[1] / "build" / "cutile-venv"
    if argv[:1] == ["--venv"]:
        venv, argv = Path(argv[1]), argv[2:]
    cutile_env.reexec_in_venv(venv, __file__, ["--venv", str(venv), *argv])
    import pytest
    return pytest.main(["-q", "-p", "no:cacheprovider", str(HERE / "test_signatures.py"), *argv])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
