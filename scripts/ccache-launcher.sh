# Sourced by the build scripts: sets `launcher` to the CMake arguments that put ccache in
# front of the compilers where it is installed (object files are then shared between the
# build folders and checkouts of this repo), or to nothing.
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_NOHASHDIR=true  # debug info then names the build folder relatively
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(dirname "$root")}"
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
