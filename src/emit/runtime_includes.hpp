// Which runtime headers a generated .cu includes: the parts of the runtime its code uses, rather
// than the umbrella tile2cu/tile2cu.cuh (which pulls in CUB, <cuda/atomic>, cuda.h and the GEMM
// and attention pipelines, and triples nvcc's time on a small kernel; docs/python-launcher.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tile2cu {

// The runtime headers ("tile2cu/reduce.cuh", ...) for generated code `code`: a fixed core, and
// the headers declaring each runtime name the code uses (src/emit/runtime_names.inc, generated
// from the runtime by scripts/runtime-names.py). Sorted, each once.
//
// Names are read as C++ tokens outside comments, string literals and preprocessor lines, so
// that the Python source quoted in comments selects nothing. Members (after `.`, `->`) and names
// qualified by anything but tile2cu (std::min, vector_add_f32::kThreads) are not runtime names.
// Operators select the headers declaring them at namespace scope (`/` between a tile and a
// scalar: divide.cuh). Python names never collide with runtime names (docs/naming.md).
std::vector<std::string> runtime_includes(std::string_view code);

// Whether the runtime declares `name` in namespace tile2cu (or defines it as a macro): generated
// code opens that namespace, so a Python name must not keep such a name (cpp_names.cpp).
bool is_runtime_name(std::string_view name);

}  // namespace tile2cu
