#!/usr/bin/env bash
# Fetches the pinned tree-sitter C sources into third_party/ (ignored by git) and checks them.
# Both come from PyPI source distributions: tree-sitter carries the core library (it reads
# grammar ABI 13 to 15), tree-sitter-python the generated parser. The grammar is pinned to
# 0.23.6 (ABI 14) because the 0.25.0 source distribution on PyPI lacks src/scanner.c, the
# external scanner that Python's indentation needs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest="$root/third_party"
stamp="$dest/.fetched-v2"
[ -f "$stamp" ] && exit 0

declare -A sha=(
  [tree-sitter-0.25.2.tar.gz]=fe43c158555da46723b28b52e058ad444195afd1db3ca7720c59a254544e9c20
  [tree_sitter_python-0.23.6.tar.gz]=354bfa0a2f9217431764a631516f85173e9711af2c13dbd796a8815acfe505d9
)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m pip download --quiet --no-binary :all: --no-deps -d "$tmp" \
  tree-sitter==0.25.2 tree-sitter-python==0.23.6
for f in "${!sha[@]}"; do
  echo "${sha[$f]}  $tmp/$f" | sha256sum --check --quiet - || { echo "checksum mismatch: $f" >&2; exit 1; }
done
rm -rf "$dest" && mkdir -p "$dest"
tar -xzf "$tmp/tree-sitter-0.25.2.tar.gz" -C "$tmp"
tar -xzf "$tmp/tree_sitter_python-0.23.6.tar.gz" -C "$tmp"
cp -r "$tmp/tree-sitter-0.25.2/tree_sitter/core/lib" "$dest/tree-sitter"
mkdir -p "$dest/tree-sitter-python"
cp -r "$tmp/tree_sitter_python-0.23.6/src" "$dest/tree-sitter-python/src"
touch "$stamp"
