// How a GemmLoop op (a recognised GEMM k-loop) reads in the generated code: its main-loop
// configuration, declared once per specialization as named constants, and the call.
#pragma once

#include <string>

#include "ir/ir.hpp"

namespace tile2cu {

// "GemmLoop_128x256x32": the configuration type of one GemmLoop op.
std::string gemm_loop_config_name(const ir::Function& fn, const ir::Op& gemm_loop);

// The `using GemmLoop_... = GemmMainLoop<...>;` lines (with what they mean) for every GemmLoop
// in the function; empty when there is none.
std::string gemm_loop_declarations(const ir::Function& fn);

}  // namespace tile2cu
