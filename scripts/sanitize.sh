#!/usr/bin/env bash
# Builds tile2cu and its tests with AddressSanitizer + UndefinedBehaviorSanitizer (and
# LeakSanitizer) in the sanitizer build (scripts/sanitizer-build.sh: clang, build-asan/, the same
# folder tests/fuzz/run_fuzz.sh fuzzes in) and runs the test suite under them: unit, golden, bad
# inputs, fuzz replay, determinism, vendoring, HTML view. Left out: compile_samples,
# package_consumer and package_rebuild (they exercise nvcc and CMake; the generated text is
# checked by golden), runtime_divide and runtime_launch_whole (nvcc builds of the runtime headers
# alone: no tile2cu code in them), html_browser (chromium), limits (it caps address space, which
# ASan cannot run under), and the Python suites (cutile_diff, cutile_signatures, random_cutile,
# python_launcher: they test Python code and real cuTile, and would install cuTile once more
# here; the inputs they give tile2cu are the bad inputs and samples, run here anyway, and the
# random generator's programs, which random_kernels runs here). The libFuzzer run is tests/fuzz/run_fuzz.sh, in the same build. Extra arguments
# go to ctest.
#
# Environment: TILE2CU_SANITIZE_BUILD (build folder, default build-asan), CXX (a clang++; default
# the newest clang++-N there is). Exits 77 when there is no clang that can build it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export TILE2CU_SANITIZE_BUILD=${TILE2CU_SANITIZE_BUILD:-$root/build-asan}
"$root/scripts/setup.sh"
"$root/scripts/sanitizer-build.sh"
cd "$TILE2CU_SANITIZE_BUILD"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
# The test runners' time limits (hang detection) stretched for the slower instrumented build.
export TILE2CU_TEST_TIME_SCALE=${TILE2CU_TEST_TIME_SCALE:-10}
# No nvcc builds of the generated code: the sanitizers instrument tile2cu, not nvcc, and the
# normal test run builds the same code. Unit tests that would build skip after their text checks;
# cpp_names_build and random_kernels transpile only (reported skipped), vendor_folder checks the
# folders without compiling them. The NVRTC build of the samples and the host runtime tests (they
# compile the runtime, not tile2cu) run in the normal build only.
export TILE2CU_TEST_NO_NVCC=${TILE2CU_TEST_NO_NVCC:-1}
ctest --output-on-failure -j "$(nproc)" \
  -E '^(compile_samples|compile_samples_nvrtc|runtime_divide|runtime_argmax_nan|runtime_launch_whole|limits|package_consumer|package_rebuild|html_browser|cutile_diff|cutile_signatures|random_cutile|python_launcher)$' "$@"
