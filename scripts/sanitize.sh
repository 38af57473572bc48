#!/usr/bin/env bash
# Builds tile2cu and its tests with AddressSanitizer + UndefinedBehaviorSanitizer (and
# LeakSanitizer) in build-asan/ and runs the test suite under them: unit, golden, bad inputs,
# fuzz replay, determinism, vendoring, HTML view. Left out: compile_samples, package_consumer and
# package_rebuild (they exercise nvcc and CMake; the generated text is checked by golden),
# html_browser (chromium), fuzz_bounded (run_fuzz.sh has its own clang sanitizer build),
# limits (it caps address space, which ASan cannot run under), and the Python suites
# (cutile_diff, cutile_signatures, python_launcher: they test Python code and real cuTile; the
# inputs they give tile2cu are the bad inputs and samples run here anyway). Extra arguments go
# to ctest.
#
# Environment: TILE2CU_SANITIZE_BUILD (build folder, default build-asan), CC/CXX (default: the
# system compiler; gcc is fine).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILE2CU_SANITIZE_BUILD:-$root/build-asan}
"$root/scripts/setup.sh"
flags="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
source "$root/scripts/ccache-launcher.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug "${launcher[@]}" \
  -DCMAKE_C_FLAGS_DEBUG="$flags" -DCMAKE_CXX_FLAGS_DEBUG="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build "$build"
cd "$build"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
# The test runners' time limits (hang detection) stretched for the slower instrumented build.
export TILE2CU_TEST_TIME_SCALE=${TILE2CU_TEST_TIME_SCALE:-10}
ctest --output-on-failure -j "$(nproc)" \
  -E '^(compile_samples|fuzz_bounded|limits|package_consumer|package_rebuild|html_browser|cutile_diff|cutile_signatures|python_launcher)$' "$@"
