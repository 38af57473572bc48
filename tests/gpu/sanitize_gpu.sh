#!/usr/bin/env bash
# Every GPU test under compute-sanitizer: tests/gpu/run_samples.py (all samples, all their
# specializations, correctness only, the --quick sizes: ragged, small to 2^20+3 elements) once
# plainly and once under each tool, memcheck, racecheck, synccheck and initcheck. A tool
# passes when it reports nothing ("0 errors" / "0 hazards") and every check passes under it.
#
#   tests/gpu/sanitize_gpu.sh GEN [TOOL...]
#       GEN    folder with the generated <sample>.cu / .cuh (as for run_samples.py --gen)
#       TOOL   default: memcheck racecheck synccheck initcheck
#
# Environment: RUNTIME (runtime headers, default runtime/ of this checkout), ARCH (default
# sm_90a), LOGS (where the logs go, default $OUT or a temporary folder), TOOL_TIMEOUT (seconds
# one tool's run may take, default 1800; a run stopped by it exits 124 and fails).
#
# The plain run builds the libraries; the tools then run in parallel on them (--reuse-libs).
# torch's caching allocator hands out pieces of larger blocks, so memcheck alone would miss a
# small overrun; run_samples.py poisons a guard region around every output and checks it.
# Prints a table (tool, seconds, exit status, the tool's summary, specializations passed) and
# exits 1 when any tool reported anything or any check failed, 77 without a GPU or tools.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 GEN [TOOL...]" >&2; exit 2; }
gen=$(cd "$1" && pwd) || exit 2
shift
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(memcheck racecheck synccheck initcheck)
runtime=${RUNTIME:-$root/runtime}
arch=${ARCH:-sm_90a}
logs=${LOGS:-${OUT:-$(mktemp -d)}}
mkdir -p "$logs"

sanitizer=$(command -v compute-sanitizer || true)
for d in "${CUDA_HOME:-}" /usr/local/cuda; do
  [ -z "$sanitizer" ] && [ -n "$d" ] && [ -x "$d/bin/compute-sanitizer" ] && sanitizer=$d/bin/compute-sanitizer
  [ -z "$sanitizer" ] && [ -n "$d" ] && [ -x "$d/compute-sanitizer/compute-sanitizer" ] && sanitizer=$d/compute-sanitizer/compute-sanitizer
done
[ -n "$sanitizer" ] || { echo "SKIP: compute-sanitizer not found"; exit 77; }
command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 || { echo "SKIP: no GPU"; exit 77; }
echo "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
echo "compute-sanitizer: $("$sanitizer" --version | grep -i version | head -1)"

samples=(python3 "$here/run_samples.py" --gen "$gen" --runtime "$runtime" --arch "$arch" --quick --no-bench)
# racecheck spends most of its time in torch's own reductions (the references and the
# comparisons); the kernels under test are the generated ones, none of which is in a
# namespace called "native" as torch's (at::native) are.
racecheck_filter=()
# (The help text is read whole first: `grep -q` closing the pipe early would fail the probe
# under pipefail.)
help_text=$("$sanitizer" --help 2>&1)
if grep -q -- '--kernel-name-exclude' <<<"$help_text"; then
  racecheck_filter=(--kernel-name-exclude kns=native)
  echo "racecheck: ${racecheck_filter[*]}"
fi
export PYTHONUNBUFFERED=1

start=$(date +%s)
"${samples[@]}" --json "$logs/plain.json" >"$logs/plain.log" 2>&1
plain_rc=$?
plain_s=$(($(date +%s) - start))

for tool in "${tools[@]}"; do
  (
    t0=$(date +%s)
    filter=()
    [ "$tool" = racecheck ] && filter=("${racecheck_filter[@]}")
    timeout "${TOOL_TIMEOUT:-1800}" "$sanitizer" --tool "$tool" --error-exitcode 86 --print-limit 50 \
      "${filter[@]}" "${samples[@]}" --reuse-libs --json "$logs/$tool.json" >"$logs/$tool.log" 2>&1
    rc=$?
    echo "$rc $(($(date +%s) - t0))" >"$logs/$tool.status"
  ) &
done
wait

passed() { grep -cE '^PASS ' "$1"; }
specs() { grep -cE '^(PASS|FAIL) ' "$1"; }
status=0
printf '\n| run | seconds | exit | report | specializations passed |\n|---|---:|---:|---|---|\n'
printf '| plain | %s | %s | - | %s / %s |\n' "$plain_s" "$plain_rc" "$(passed "$logs/plain.log")" "$(specs "$logs/plain.log")"
[ "$plain_rc" -eq 0 ] || status=1
for tool in "${tools[@]}"; do
  read -r rc secs <"$logs/$tool.status"
  summary=$(grep -E '(ERROR|RACECHECK) SUMMARY' "$logs/$tool.log" | tail -1 | sed 's/^=* *//')
  printf '| %s | %s | %s | %s | %s / %s |\n' "$tool" "$secs" "$rc" "${summary:-no summary}" \
    "$(passed "$logs/$tool.log")" "$(specs "$logs/$tool.log")"
  if [ "$rc" -ne 0 ] || ! grep -qE 'SUMMARY: 0 (errors|hazards)' <<<"$summary"; then
    status=1
    echo "--- $tool: first reports"
    grep -m 20 -E '^========= (Invalid|Race|Barrier|Uninitialized|Program hit|ERROR|WARN)|^FAIL ' "$logs/$tool.log"
  fi
done
[ "$plain_rc" -eq 0 ] || { echo "--- plain run failed"; grep -m 20 '^FAIL ' "$logs/plain.log"; }
echo
[ $status -eq 0 ] && echo "sanitize_gpu: no reports, every check passed" || echo "sanitize_gpu: FAILED (logs in $logs)"
exit $status
