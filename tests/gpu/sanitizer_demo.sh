#!/usr/bin/env bash
# Demonstration for --line-directives on the GPU machine: compute-sanitizer reports a planted
# out-of-bounds store (oob_store.py) at its Python file and line.
#
#   tests/gpu/sanitizer_demo.sh [TILE2CU] [NVCC_ARCH_FLAG]
#       TILE2CU          default build/tile2cu
#       NVCC_ARCH_FLAG   default -arch=native
#
# Steps: transpile oob_store.py with --line-directives; build it with `nvcc -lineinfo` (the
# optimized build, line table only); run it under `compute-sanitizer --tool memcheck`; check
# that the report names oob_store.py and the line of the store. Should the optimized build's
# report not reach the Python line (its innermost frame is the runtime's inlined store), the
# script says so and tries a device-debug build (-G), whose backtrace has the kernel's frame.
# Exits 0 when a report names the Python line, 1 when none does, 77 without a GPU or tools.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tool=${1:-$root/build/tile2cu}
arch=${2:--arch=native}
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
sanitizer=$(command -v compute-sanitizer || true)
for d in "${CUDA_HOME:-}" /usr/local/cuda; do
  [ -z "$sanitizer" ] && [ -n "$d" ] && [ -x "$d/bin/compute-sanitizer" ] && sanitizer=$d/bin/compute-sanitizer
  [ -z "$sanitizer" ] && [ -n "$d" ] && [ -x "$d/compute-sanitizer/compute-sanitizer" ] && sanitizer=$d/compute-sanitizer/compute-sanitizer
done
[ -x "$tool" ] || { echo "no tile2cu at $tool"; exit 77; }
tool=$(cd "$(dirname "$tool")" && pwd)/$(basename "$tool")
[ -x "$nvcc" ] || { echo "nvcc not found"; exit 77; }
[ -n "$sanitizer" ] || { echo "compute-sanitizer not found"; exit 77; }
command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU"; exit 77; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$root/tests/gpu/oob_store.py" "$root/tests/gpu/oob_store_main.cu" "$work/"
store_line=$(grep -n "ct.store(y" "$work/oob_store.py" | cut -d: -f1)
echo "planted store: oob_store.py:$store_line"
cd "$work"
"$tool" oob_store.py --sig 'oob_copy_f32 = oob_copy(x=float32[?], y=float32[?], TILE=1024)' \
  --line-directives -o oob_store.cu || exit 1
grep -n '^#line' oob_store.cu | head -5

status=1
for flags in "-O3 -lineinfo" "-G"; do
  echo
  echo "== nvcc $flags"
  # shellcheck disable=SC2086
  "$nvcc" -std=c++17 $flags "$arch" -I "$root/runtime" -I . oob_store.cu oob_store_main.cu -o oob || exit 1
  "$sanitizer" --tool memcheck --show-backtrace device ./oob >report.txt 2>&1
  sed -n '1,40p' report.txt
  if grep -q "Invalid __global__ write" report.txt; then
    if grep -q "oob_store.py:$store_line" report.txt; then
      echo
      echo "PASS ($flags): compute-sanitizer names oob_store.py:$store_line:"
      grep -m3 "oob_store.py:$store_line" report.txt
      status=0
      break
    fi
    echo "($flags: the out-of-bounds write was found, but the report does not name oob_store.py:$store_line)"
  else
    echo "($flags: no invalid write reported)"
  fi
done
[ $status -eq 0 ] || echo "FAIL: no report named oob_store.py:$store_line"
exit $status
