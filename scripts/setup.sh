#!/usr/bin/env bash
# Installs what building tile2cu needs (Debian packages) and fetches the pinned tree-sitter
# sources. Safe to run again: it skips what is already there.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
packages=(cmake ninja-build g++ python3 python3-pytest libfmt-dev libcli11-dev nlohmann-json3-dev libgtest-dev chromium clang-19 libclang-rt-19-dev ccache)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# CMake's tests run under the python3 first on PATH, which need not be Debian's (a pyenv one
# has no python3-pytest): give that interpreter pytest from PyPI when it lacks it.
if ! python3 -c 'import pytest' 2>/dev/null; then
  echo "setup: installing pytest for $(command -v python3)"
  python3 -m pip install --disable-pip-version-check -q pytest
fi
"$root/scripts/fetch-deps.sh"
