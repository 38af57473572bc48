#!/usr/bin/env bash
# The CMake package, installed: `cmake --install` into a temporary prefix, then configure, build
# and run samples/consumer against it (find_package(tile2cu) + tile2cu_add_kernels). The consumer
# checks its results on a GPU and says "no GPU: skipped" without one.
#
#   check_package.sh BUILD_DIR [NVCC]
#
# Exits 77 (CTest: skipped) when nvcc is not installed: the consumer is a CUDA project.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd)
nvcc=${2:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$nvcc" ]; then
  echo "nvcc not found: package test skipped"
  exit 77
fi
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

echo "== cmake --install $build --prefix $tmp/prefix"
cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" || { cat "$tmp/install.log"; fail "install"; }
[ -x "$tmp/prefix/bin/tile2cu" ] || fail "bin/tile2cu not installed"
for h in "$root"/runtime/tile2cu/*; do
  cmp -s "$h" "$tmp/prefix/include/tile2cu/$(basename "$h")" || fail "include/tile2cu/$(basename "$h") not installed"
done
config=$(find "$tmp/prefix" -name tile2cuConfig.cmake | head -1)
[ -n "$config" ] || fail "tile2cuConfig.cmake not installed"
for f in tile2cuConfigVersion.cmake tile2cuTargets.cmake Tile2cuKernels.cmake Tile2cuScanImports.cmake; do
  [ -f "$(dirname "$config")/$f" ] || fail "$f not installed next to tile2cuConfig.cmake"
done
"$tmp/prefix/bin/tile2cu" --version

echo "== configure and build samples/consumer against the install"
cmake -S "$root/samples/consumer" -B "$tmp/consumer" "${generator[@]}" \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES=80 \
  -DCMAKE_BUILD_TYPE=Release >"$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; fail "configure"; }
grep -q "tile2cu_DIR:PATH=$tmp/prefix" "$tmp/consumer/CMakeCache.txt" || fail "find_package did not pick the install"
cmake --build "$tmp/consumer" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "build"; }
cat "$tmp/build.log"
grep -q "tile2cu: transpiling" "$tmp/build.log" || fail "the kernels were not transpiled at build time"
grep -q '^#line [0-9]* ".*row_bias_scale.py"' "$tmp/consumer/tile2cu/consumer/row_bias_scale.cu" ||
  fail "LINE_DIRECTIVES gave no #line into row_bias_scale.py"
! grep -q '^#line' "$tmp/consumer/tile2cu/consumer/vector_add.cu" || fail "#line directives without LINE_DIRECTIVES"

echo "== run"
"$tmp/consumer/consumer" | tee "$tmp/run.log"
grep -qE "^(all ok|no GPU: skipped)$" "$tmp/run.log" || fail "consumer output"
echo "package: ok"
