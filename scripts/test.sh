#!/usr/bin/env bash
# Builds everything and runs the whole test suite (unit, golden, bad inputs, nvcc compile
# tests). GPU tests are not part of it: they run on the device machine (tests/gpu/).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh"
cd "$root/build"
ctest --output-on-failure -j 2
# In CI, the wheel too (pyproject.toml): built once more (Release, the binary only), installed
# into a fresh virtual environment and tested from there (scripts/test-wheel.sh).
if [ "${CI:-}" = "true" ]; then
  start=$(date +%s)
  "$root/scripts/test-wheel.sh"
  echo "wheel build, install and tests: $(($(date +%s) - start)) s"
fi
# In CI, the same tests again under AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/).
if [ "${CI:-}" = "true" ]; then
  start=$(date +%s)
  "$root/scripts/sanitize.sh"
  echo "sanitizer build and tests: $(($(date +%s) - start)) s"
fi
