#!/usr/bin/env bash
# Set-up, then configure and build tile2cu and its tests in build/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
# ccache, where installed, shares object files between checkouts (worktrees) of this repo.
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_NOHASHDIR=true  # debug info then names the build folder relatively
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(dirname "$root")}"
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" >/dev/null
cmake --build "$root/build" "$@"
