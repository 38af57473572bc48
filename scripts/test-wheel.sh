#!/usr/bin/env bash
# The wheel (pyproject.toml, issue 31): build it from this checkout into .whl/ (ignored; carry it
# to the GPU machine from there), install it into a fresh virtual environment and check, from
# there and not from this source tree:
#   - the binary it ships needs nothing but glibc (no libfmt, no libstdc++);
#   - `tile2cu --version` (the console script) and `python -m tile2cu doctor`;
#   - transpiling samples/vector_add.py gives byte-identical files to this checkout's build/tile2cu;
#   - the runtime headers it ships are runtime/tile2cu/;
#   - the launcher's tests (tests/python; those needing a GPU skip without one).
# Needs build/tile2cu (scripts/build.sh) and PyPI (scikit-build-core for the build, pytest).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source_tool="$root/build/tile2cu"
[ -x "$source_tool" ] || { echo "test-wheel: $source_tool missing: run scripts/build.sh" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "test-wheel: FAIL: $*" >&2; exit 1; }

start=$(date +%s)
rm -f "$root"/.whl/tile2cu-*.whl
# ccache, where installed, in front of the wheel's compilers too: pyproject.toml builds with
# scripts/build.sh's flags, so the objects come from the cache build.sh filled and only the link
# is new.
# The compilers are build.sh's too, by the same names: scikit-build-core would take Python's
# (gcc, g++ where CMake chose cc, c++), and ccache keys on the name.
source "$root/scripts/ccache-launcher.sh"
settings=()
for arg in "${launcher[@]}"; do settings+=("--config-settings=cmake.define.${arg#-D}"); done
compiler() { sed -n "s/^CMAKE_$1_COMPILER:[A-Z]*=//p" "$root/build/CMakeCache.txt"; }
CC=${CC:-$(compiler C)} CXX=${CXX:-$(compiler CXX)} CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2} \
  python3 -m pip wheel --disable-pip-version-check --no-deps -q "${settings[@]}" -w "$root/.whl" "$root"
wheel=$(ls "$root"/.whl/tile2cu-*.whl)
echo "test-wheel: built $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KiB) in $(($(date +%s) - start)) s"

python3 -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install --disable-pip-version-check -q "$wheel" pytest
# From here on nothing points into the checkout: no PYTHONPATH, TILE2CU_BIN or LD_LIBRARY_PATH,
# and the commands run from an empty folder.
run() { (cd "$tmp" && env -u PYTHONPATH -u TILE2CU_BIN -u LD_LIBRARY_PATH PATH="$tmp/venv/bin:$PATH" "$@"); }
package=$(run python -c 'import tile2cu, os; print(os.path.dirname(tile2cu.__file__))')
case "$package" in "$tmp/venv/"*) ;; *) fail "tile2cu imported from $package, not the venv" ;; esac
tool="$package/bin/tile2cu"

needed=$(readelf -d "$tool" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | tr '\n' ' ')
for lib in $needed; do
  case "$lib" in libc.so.6|libm.so.6|ld-linux-x86-64.so.2|libpthread.so.0|libdl.so.2|librt.so.1) ;;
    *) fail "the shipped binary needs $lib (only glibc's libraries are allowed): $needed" ;; esac
done
glibc=$(objdump -T "$tool" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)
echo "test-wheel: the binary needs $needed(symbols up to $glibc)"

[ "$(run tile2cu --version)" = "$("$source_tool" --version)" ] || fail "tile2cu --version differs"
version=$(run python -c 'import importlib.metadata as m; print(m.version("tile2cu"))')
[ "$(run tile2cu --version)" = "tile2cu $version" ] || fail "binary and package versions differ"

doctor=$(TILE2CU_ARCH=sm_90a run python -m tile2cu doctor) || fail "doctor (TILE2CU_ARCH set) failed: $doctor"
grep -qF "ok       binary    $tool" <<<"$doctor" || fail "doctor did not report $tool: $doctor"
grep -qF "ok       runtime   $package/include" <<<"$doctor" || fail "doctor did not report the runtime: $doctor"
echo "$doctor"

mkdir "$tmp/installed" "$tmp/source"
run tile2cu "$root/samples/vector_add.py" -o "$tmp/installed/vector_add.cu"
"$source_tool" "$root/samples/vector_add.py" -o "$tmp/source/vector_add.cu"
diff -r "$tmp/source" "$tmp/installed" >/dev/null || fail "transpiled output differs from build/tile2cu's"
diff -r "$root/runtime/tile2cu" "$package/include/tile2cu" >/dev/null || fail "shipped runtime differs"
echo "test-wheel: samples/vector_add.py from the installed tile2cu: identical to build/tile2cu's"

run env TILE2CU_TEST_INSTALLED=1 python -m pytest -q -p no:cacheprovider "$root/tests/python"
echo "test-wheel: ok ($(($(date +%s) - start)) s)"
