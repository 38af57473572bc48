#!/usr/bin/env bash
# Set-up, then configure and build tile2cu and its tests in build/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
# ccache, where installed, shares object files between checkouts (worktrees) of this repo.
source "$root/scripts/ccache-launcher.sh"
# fmt compiled in (TILE2CU_SELF_CONTAINED), as in the wheel (pyproject.toml): same flags, so the
# wheel's build finds these objects in ccache; and this binary needs only glibc too.
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILE2CU_SELF_CONTAINED=ON \
  "${launcher[@]}" >/dev/null
cmake --build "$root/build" "$@"
