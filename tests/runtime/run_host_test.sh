#!/usr/bin/env bash
# Builds and runs tests/runtime/<name>.cu on the host (nvcc as the compiler driver only; no GPU
# needed): run_host_test.sh <name> <build dir>. Exit 77 (skipped) without nvcc.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
name="$1"
out="${2:-$(mktemp -d)}"
nvcc_bin="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
[[ -x "$nvcc_bin" ]] || { echo "SKIPPED: nvcc not found"; exit 77; }
mkdir -p "$out"
"$nvcc_bin" -std=c++17 -O2 -I "$root/runtime" -Xcompiler -ffp-contract=off \
  "$here/$name.cu" -o "$out/$name"
"$out/$name"
