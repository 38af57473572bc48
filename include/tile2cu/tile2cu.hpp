// tile2cu as a library: cuTile Python kernels in, readable CUDA C++ out.
// The command-line tool is a thin client of `transpile`.
#pragma once

#include <string>
#include <vector>

namespace tile2cu {

enum class EmitKind { Ast, Ir, Cu, Header };

struct TranspileOptions {
  // Which kernel --sig lines without a kernel name refer to; empty: the only kernel.
  std::string kernel;
  // Signatures in text form ("a=float32[?], TILE=1024" or "name = kernel(...)").
  std::vector<std::string> signatures;
  // Contents and path of a sidecar signature file, used when `signatures` is empty.
  std::string sidecar_text;
  std::string sidecar_path;
  bool line_directives = false;
  std::string header_name;  // how the .cu includes its header
  std::string cu_name;      // the .cu's own name, for #line directives back into it
  std::string source_name;  // how comments name the Python file
  // Passes after which the IR is printed into TranspileResult::ir_after_passes ("all": every one).
  std::vector<std::string> print_after;
};

struct TranspileResult {
  bool ok = false;
  std::string diagnostics;  // rendered errors (file:line:col, source line, caret)
  std::string ast, ir, cu, cuh;
  std::string launch_plan;  // JSON: each specialization's launch as data, for launchers without nvcc
  std::string ir_after_passes;  // the IR after each pass TranspileOptions::print_after names
  int exit_code = 0;        // 0 ok, 1 error in the input, 2 usage error
};

TranspileResult transpile(const std::string& path, const std::string& source,
                          const TranspileOptions& options);

const char* version();

}  // namespace tile2cu
