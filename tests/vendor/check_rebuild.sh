#!/usr/bin/env bash
# tile2cu_add_kernels from the build tree's package (tile2cu_DIR=<build dir>, no install): the
# transpiler re-runs exactly when the kernel, a local module it imports (directly, through a
# package, or through another module), or its signature file changes, and not otherwise; and an
# unchanged result does not recompile the generated .cu.
#
#   check_rebuild.sh BUILD_DIR [NVCC]
#
# Exits 77 (CTest: skipped) without nvcc (the test project is a CUDA project) or ninja.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd)
nvcc=${2:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$nvcc" ] || ! command -v ninja >/dev/null; then
  echo "nvcc or ninja not found: rebuild test skipped"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
src=$tmp/project
b=$tmp/build
cp -r "$root/tests/vendor/deps_project" "$src"
out=tile2cu/kernels/scaled_copy.cu

cmake -S "$src" -B "$b" -G Ninja -Dtile2cu_DIR="$build" -DCMAKE_CUDA_COMPILER="$nvcc" \
  >"$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; fail "configure"; }

# step NAME EXPECT [touch FILE...]: touches the files, then builds the generated .cu and checks
# whether the transpiler ran (EXPECT = runs | idle).
step() {
  local name=$1 expect=$2
  shift 2
  if [ $# -gt 0 ]; then
    sleep 1
    touch "$@"
  fi
  ninja -C "$b" "$out" >"$tmp/step.log" 2>&1 || { cat "$tmp/step.log"; fail "$name: build failed"; }
  if grep -q "tile2cu: transpiling" "$tmp/step.log"; then ran=runs; else ran=idle; fi
  [ "$ran" = "$expect" ] || { cat "$tmp/step.log"; fail "$name: the transpiler $ran, expected $expect"; }
  echo "ok: $name ($expect)"
}

step "first build" runs
step "nothing changed" idle
step "kernel file" runs "$src/kernels/scaled_copy.py"
step "imported module (import launch_config)" runs "$src/kernels/launch_config.py"
step "module imported by that module (from shared import defaults)" runs "$src/kernels/shared/defaults.py"
step "package module (from shared import tiling)" runs "$src/kernels/shared/tiling.py"
step "package __init__" runs "$src/kernels/shared/__init__.py"
step "signature file" runs "$src/kernels/scaled_copy.sigs"
step "a module nothing imports" idle "$src/kernels/unrelated.py"
sleep 1
printf 'import unrelated  # noqa: F401\n' >>"$src/kernels/scaled_copy.py"
step "kernel now imports it" runs
step "newly imported module" runs "$src/kernels/unrelated.py"
step "nothing changed" idle

# Output unchanged -> the .cu keeps its time stamp -> no nvcc run.
ninja -C "$b" >"$tmp/full.log" 2>&1 || { cat "$tmp/full.log"; fail "full build"; }
grep -q "Building CUDA object" "$tmp/full.log" || { cat "$tmp/full.log"; fail "the generated .cu was not compiled"; }
sleep 1
touch "$src/kernels/launch_config.py"
ninja -C "$b" >"$tmp/full.log" 2>&1 || { cat "$tmp/full.log"; fail "full build"; }
grep -q "tile2cu: transpiling" "$tmp/full.log" || fail "touching an import did not re-run the transpiler"
! grep -q "Building CUDA object" "$tmp/full.log" || { cat "$tmp/full.log"; fail "an unchanged .cu was recompiled"; }
echo "ok: unchanged output is not recompiled"
echo "rebuild: ok"
