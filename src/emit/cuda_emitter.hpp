// Tile IR -> CUDA C++. One specialization becomes a namespace holding its layouts, its
// __global__ kernel (cutile_python_v2 parameter order), a typed launcher and a C entry.
#pragma once

#include <string>
#include <vector>

#include "ir/ir.hpp"

namespace tile2cu {

struct EmitOptions {
  bool line_directives = false;  // #line directives pointing at the Python file
  std::string header_name;       // the .cuh the .cu includes ("vector_add.cuh")
  std::string cu_name;           // the .cu itself, for #line directives back into it
  std::string source_name;       // the Python file as named in comments
};

struct EmittedFiles {
  std::string cu;
  std::string cuh;
  std::string launch_plan;  // JSON: every specialization's launch as data (launch_plan.hpp)
};

EmittedFiles emit_cuda(const std::vector<ir::Function>& specializations, const EmitOptions& options);

}  // namespace tile2cu
