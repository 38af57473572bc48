#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (-fsanitize=fuzzer,address,undefined) in the sanitizer
# build folder (the one scripts/sanitize.sh tests in) and runs each for a bounded time.
#
#   tests/fuzz/run_fuzz.sh [SECONDS]        SECONDS per target (default $TILE2CU_FUZZ_SECONDS, else
#                                           60 in CI (CI=true) and 10 elsewhere)
#
# Environment: TILE2CU_FUZZ_BUILD (build folder, default $TILE2CU_SANITIZE_BUILD, else
# build-asan), TILE2CU_FUZZ_TARGETS (default "frontend sema pipeline"), TILE2CU_FUZZ_TIMEOUT
# (seconds one input may take before libFuzzer calls it a hang, default 60), CXX (a clang++;
# default the newest clang++-N there is).
#
# Seeds: the samples (with their sidecar signatures as `# sig:` lines), tests/bad_inputs and
# the committed corpus tests/fuzz/corpus/ (handwritten/, and <target>/ merged from earlier
# runs). What a run learns goes to <build>/corpus/<target> and persists between runs. Every
# crash, leak, timeout or out-of-memory input is copied to tests/fuzz/regressions/, which
# tests/fuzz/replay.cpp replays in the ordinary test suite; the script then exits 1.
# Exits 77 (CTest: skipped) when clang or libFuzzer is not available.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
default_seconds=10
[ "${CI:-}" = "true" ] && default_seconds=60
seconds=${1:-${TILE2CU_FUZZ_SECONDS:-$default_seconds}}
build=${TILE2CU_FUZZ_BUILD:-${TILE2CU_SANITIZE_BUILD:-$root/build-asan}}
targets=${TILE2CU_FUZZ_TARGETS:-frontend sema pipeline}
# A hang is an input slower than this (libFuzzer's slow-unit report uses the same bound). The
# lowering budgets (src/sema/budget.hpp) stop a file after well under a second of release CPU,
# but this build lowers ~20x slower (ASan, UBSan, libFuzzer's comparison tracing, -O1): bad
# input 601, which spends the step budget, takes 0.44 s released and 10-17 s here on a loaded
# 2-core machine, and timed out at the former 5 s. fuzz_replay allows 10 s x TIME_SCALE (10).
unit_timeout=${TILE2CU_FUZZ_TIMEOUT:-60}
# The libFuzzer binaries come from the sanitizer build that scripts/sanitize.sh shares
# (scripts/sanitizer-build.sh: clang, fuzzer-no-link + ASan + UBSan); it exits 77 without clang.
fuzzers=()
for t in $targets; do fuzzers+=("fuzz_$t"); done
echo "fuzz: building ${fuzzers[*]} in $build"
TILE2CU_SANITIZE_BUILD=$build "$root/scripts/sanitizer-build.sh" "${fuzzers[@]}" || exit $?

# Seeds that need generating: samples with their signatures.
seeds="$build/seeds"
rm -rf "$seeds"
mkdir -p "$seeds"
for py in "$root"/samples/*.py; do
  sigs="${py%.py}.sigs"
  {
    [ -f "$sigs" ] && grep -v -E '^[[:space:]]*(#|$)' "$sigs" | sed 's/^/# sig: /'
    cat "$py"
  } >"$seeds/$(basename "$py")"
done

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
status=0
for t in $targets; do
  corpus="$build/corpus/$t"
  artifacts="$build/artifacts/$t"
  mkdir -p "$corpus" "$artifacts"
  rm -f "$artifacts"/*
  echo "fuzz: fuzz_$t for ${seconds}s"
  set +e
  "$build/tests/fuzz/fuzz_$t" "$corpus" "$here/corpus" "$seeds" "$root/tests/bad_inputs" \
    -dict="$here/python.dict" -max_len=8192 -rss_limit_mb=1024 \
    -timeout="$unit_timeout" -report_slow_units="$unit_timeout" \
    -max_total_time="$seconds" -artifact_prefix="$artifacts/" -print_final_stats=1 \
    >"$build/fuzz_$t.log" 2>&1
  rc=$?
  set -e
  grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)' "$build/fuzz_$t.log" || true
  found=0
  for a in "$artifacts"/*; do
    [ -f "$a" ] || continue
    found=1
    name="$t-$(basename "$a")"
    cp "$a" "$here/regressions/$name"
    echo "FOUND: $here/regressions/$name"
  done
  if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
    echo "FAIL: fuzz_$t exited $rc; the report:"
    if grep -q -E '^==[0-9]+==|runtime error|internal error' "$build/fuzz_$t.log"; then
      grep -E -A25 '^==[0-9]+==|runtime error|internal error' "$build/fuzz_$t.log" | head -60
    else
      tail -20 "$build/fuzz_$t.log"
    fi
    status=1
  fi
done
[ "$status" -eq 0 ] && echo "fuzz: no crash, no leak, no timeout"
exit "$status"
