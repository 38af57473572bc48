#!/usr/bin/env bash
# Set-up, then configure and build tile2cu and its tests in build/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
# ccache, where installed, shares object files between checkouts (worktrees) of this repo.
source "$root/scripts/ccache-launcher.sh"
# RelWithDebInfo, as pyproject.toml builds the wheel: ccache then serves the wheel's build
# (scripts/test-wheel.sh) from these objects.
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" >/dev/null
cmake --build "$root/build" "$@"
