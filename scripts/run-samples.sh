#!/usr/bin/env bash
# The main job on the bundled samples: transpile each samples/NAME.py with its NAME.sigs into
# out/NAME.cu + out/NAME.cuh, then compile them with nvcc for sm_80 and sm_90a when nvcc exists.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" --target tile2cu
mkdir -p "$root/out"
nvcc=$(command -v nvcc || true)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
for py in "$root"/samples/*.py; do
  name=$(basename "$py" .py)
  [ -f "${py%.py}.sigs" ] || continue
  "$root/build/tile2cu" "$py" -o "$root/out/$name.cu"
  if [ -n "$nvcc" ]; then
    "$nvcc" -std=c++17 -O3 -I "$root/runtime" -arch=sm_80 -c "$root/out/$name.cu" -o "$root/out/$name.sm_80.o"
    "$nvcc" -std=c++17 -O3 -I "$root/runtime" -gencode=arch=compute_90a,code=sm_90a \
      -c "$root/out/$name.cu" -o "$root/out/$name.sm_90a.o"
    echo "samples/$name.py -> out/$name.cu, out/$name.cuh (compiled for sm_80 and sm_90a)"
  else
    echo "samples/$name.py -> out/$name.cu, out/$name.cuh (nvcc not found: not compiled)"
  fi
done
