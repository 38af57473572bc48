#!/usr/bin/env bash
# Builds everything and runs the whole test suite (unit, golden, bad inputs, nvcc compile
# tests). GPU tests are not part of it: they run on the device machine (tests/gpu/).
#
# With CI=true, after the normal build's tests: the wheel (scripts/test-wheel.sh), the test suite
# under AddressSanitizer + UndefinedBehaviorSanitizer (scripts/sanitize.sh) and the bounded
# libFuzzer run (tests/fuzz/run_fuzz.sh) in that same instrumented build, instead of as the
# ctest fuzz_bounded, which would make the instrumented build first. Each stage's time is printed
# (docs/reliability.md, "CI time").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ci=false
[ "${CI:-}" = "true" ] && ci=true
timings=()
stage() {  # stage NAME COMMAND...: runs it, keeps its wall time, returns its status
  local name=$1 start=$(date +%s) rc=0
  shift
  "$@" || rc=$?
  timings+=("$name: $(($(date +%s) - start)) s")
  echo "stage $name: $(($(date +%s) - start)) s (exit $rc)"
  return "$rc"
}
stage build "$root/scripts/build.sh"
cd "$root/build"
if $ci; then
  stage ctest ctest --output-on-failure -j 2 -E '^fuzz_bounded$'
  # The wheel: built once more (pyproject.toml: the binary only; ccache, where installed, serves
  # the objects build.sh just compiled), installed into a fresh virtual environment and tested.
  stage wheel "$root/scripts/test-wheel.sh"
  stage sanitize "$root/scripts/sanitize.sh"
  # Exit 77: no clang with libFuzzer (skipped, as the ctest would be); sanitize.sh needs the same
  # clang and would have failed first.
  stage fuzz "$root/tests/fuzz/run_fuzz.sh" || [ $? -eq 77 ]
else
  stage ctest ctest --output-on-failure -j 2
fi
printf 'stage times: %s\n' "${timings[*]}"
