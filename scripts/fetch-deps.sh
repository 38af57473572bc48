#!/usr/bin/env bash
# Fetches the pinned tree-sitter C sources into third_party/ (ignored by git) and checks them.
# All come from PyPI source distributions:
#   tree-sitter 0.25.2         the core library (reads grammar ABI 13 to 15)
#   tree-sitter-python 0.25.0  the generated parser (ABI 15) and its tree_sitter/*.h headers
#   tree-sitter-python 0.23.6  only src/scanner.c, the external scanner for indentation and
#                              strings: the 0.25.0 sdist on PyPI omits it, PyPI has no other
#                              0.25.x, and Debian 12 packages no tree-sitter-python (checked
#                              2026-11). Both versions declare the same twelve external tokens;
#                              the three closing brackets come as ], ), } in 0.25.0's parser and
#                              as ), ], } in 0.23.6's scanner, which only asks whether any of
#                              the three is valid, so the order does not matter.
#                              Its comment look-ahead is quadratic in a run of comment lines; the
#                              front end blanks such lines before parsing (comment_lines.hpp).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest="$root/third_party"
stamp="$dest/.fetched-v3"
[ -f "$stamp" ] && exit 0

declare -A sha=(
  [tree-sitter-0.25.2.tar.gz]=fe43c158555da46723b28b52e058ad444195afd1db3ca7720c59a254544e9c20
  [tree_sitter_python-0.25.0.tar.gz]=b13e090f725f5b9c86aa455a268553c65cadf325471ad5b65cd29cac8a1a68ac
  [tree_sitter_python-0.23.6.tar.gz]=354bfa0a2f9217431764a631516f85173e9711af2c13dbd796a8815acfe505d9
)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m pip download --quiet --no-binary :all: --no-deps -d "$tmp" tree-sitter==0.25.2
python3 -m pip download --quiet --no-binary :all: --no-deps -d "$tmp" tree-sitter-python==0.25.0
python3 -m pip download --quiet --no-binary :all: --no-deps -d "$tmp" tree-sitter-python==0.23.6
for f in "${!sha[@]}"; do
  echo "${sha[$f]}  $tmp/$f" | sha256sum --check --quiet - || { echo "checksum mismatch: $f" >&2; exit 1; }
  tar -xzf "$tmp/$f" -C "$tmp"
done
rm -rf "$dest" && mkdir -p "$dest/tree-sitter-python"
cp -r "$tmp/tree-sitter-0.25.2/tree_sitter/core/lib" "$dest/tree-sitter"
cp -r "$tmp/tree_sitter_python-0.25.0/src" "$dest/tree-sitter-python/src"
cp "$tmp/tree_sitter_python-0.23.6/src/scanner.c" "$dest/tree-sitter-python/src/scanner.c"
touch "$stamp"
