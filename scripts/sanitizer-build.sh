#!/usr/bin/env bash
# The one instrumented build that scripts/sanitize.sh (the test suite under sanitizers) and
# tests/fuzz/run_fuzz.sh (libFuzzer) share: clang with -fsanitize=fuzzer-no-link,address,undefined
# (CMake option TILE2CU_FUZZ), -O1 -g. Configures the folder when needed, then builds the targets
# given (all when none).
#
#   scripts/sanitizer-build.sh [TARGET...]
#
# Environment: TILE2CU_SANITIZE_BUILD (the folder, default build-asan), CXX (a clang++; default
# the newest clang++-N there is). Exits 77 (CTest: skipped) when no clang can link libFuzzer.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILE2CU_SANITIZE_BUILD:-$root/build-asan}
probe_dir=$(mktemp -d)
trap 'rm -rf "$probe_dir"' EXIT
# The compiler must link -fsanitize=fuzzer,address,undefined and know the C++20 the sources
# use (lambdas capturing structured bindings: clang 16 and up). $CXX when it is a clang,
# else the newest clang++-N installed, else clang++.
cat >"$probe_dir/probe.cpp" <<'PROBE'
#include <cstddef>
#include <cstdint>
#include <utility>
extern "C" int LLVMFuzzerTestOneInput(const uint8_t*, size_t n) {
  auto [a, b] = std::pair<int, int>(1, static_cast<int>(n));
  return [&] { return a + b; }() == 0;
}
PROBE
candidates=()
case "${CXX:-}" in *clang*) candidates+=("$CXX") ;; esac
for v in 22 21 20 19 18 17 16; do candidates+=("clang++-$v"); done
candidates+=(clang++)
cxx=""
for c in "${candidates[@]}"; do
  command -v "$c" >/dev/null 2>&1 || continue
  if "$c" -std=c++20 -fsanitize=fuzzer,address,undefined "$probe_dir/probe.cpp" -o "$probe_dir/probe" \
       2>"$probe_dir/err"; then
    cxx=$c
    break
  fi
  echo "sanitizer build: $c cannot build the fuzzers: $(head -1 "$probe_dir/err")"
done
if [ -z "$cxx" ]; then
  echo "SKIP: no clang++ (16 or later, with libFuzzer) found: apt-get install clang-19 libclang-rt-19-dev"
  exit 77
fi
cc=${cxx/clang++/clang}

# A folder configured otherwise (another compiler, or an older gcc sanitizer build) starts over.
if [ ! -f "$build/CMakeCache.txt" ] || [ "$(cat "$build/fuzz-cxx" 2>/dev/null)" != "$cxx" ]; then
  echo "sanitizer build: configuring $build with $cxx"
  [ -f "$build/CMakeCache.txt" ] && rm -rf "$build"
  mkdir -p "$build"
  source "$root/scripts/ccache-launcher.sh"
  cmake -S "$root" -B "$build" -G Ninja -DTILE2CU_FUZZ=ON "${launcher[@]}" \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
    -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O1 -g" -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" >/dev/null
  echo "$cxx" >"$build/fuzz-cxx"
fi
cmake --build "$build" ${1:+--target "$@"}
