"""The `tile2cu` command that the wheel installs: the transpiler binary shipped in the package,
run in place of this process with the same arguments, so its output and exit status are the
binary's own."""

from __future__ import annotations

import os
import sys

from . import _build


def main() -> None:
    try:
        tool = _build.find_tool(search_path=False)
    except FileNotFoundError as e:
        print(f"tile2cu: {e}", file=sys.stderr)
        sys.exit(127)
    sys.stdout.flush()
    os.execv(tool, [str(tool), *sys.argv[1:]])
