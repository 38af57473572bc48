#!/usr/bin/env bash
# Regenerates tests/golden from the samples. Review the diff before committing it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cmake --build "$root/build" --target tile2cu >/dev/null
python3 "$root/tests/golden/check_golden.py" "$root/build/tile2cu" --update
git -C "$root" --no-pager diff --stat -- tests/golden
