"""python -m tile2cu run script.py [args...]   run a cuTile script unchanged through tile2cu
python -m tile2cu run -m module [args...]     the same for a module
python -m tile2cu cache [--clear]             where the kernel cache is (and empty it)
python -m tile2cu doctor                      what tile2cu finds here (binary, nvcc, GPUs, ...)
                                              and how to fix what is missing"""

from __future__ import annotations

import runpy
import sys

from . import _alias, _build


def _usage(code: int) -> None:
    print(__doc__.strip(), file=sys.stderr if code else sys.stdout)
    sys.exit(code)


def main(argv: list[str]) -> None:
    if not argv or argv[0] in ("-h", "--help"):
        _usage(0 if argv else 2)
    command, rest = argv[0], argv[1:]
    if command == "run":
        if not rest:
            _usage(2)
        _alias.install_for_children()
        _alias.install()
        if rest[0] == "-m":
            if len(rest) < 2:
                _usage(2)
            sys.argv = rest[1:]
            runpy.run_module(rest[1], run_name="__main__", alter_sys=True)
        else:
            import os
            sys.argv = rest
            sys.path[0] = os.path.dirname(os.path.abspath(rest[0]))
            runpy.run_path(rest[0], run_name="__main__")
    elif command == "cache":
        print(_build.cache_root())
        if rest == ["--clear"]:
            _build.clear_cache()
        elif rest:
            _usage(2)
    elif command == "doctor":
        if rest:
            _usage(2)
        from . import _doctor
        sys.exit(_doctor.main())
    else:
        _usage(2)


if __name__ == "__main__":
    main(sys.argv[1:])
