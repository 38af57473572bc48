// How a GemmLoop op (a recognised GEMM k-loop) reads in the generated code: its main-loop
// configuration, declared once per specialization as named constants, and the call.
#pragma once

#include <string>
#include <vector>

#include "ir/ir.hpp"

namespace tile2cu {

// "GemmLoop_128x256x32": the configuration type of one GemmLoop op.
std::string gemm_loop_config_name(const ir::Function& fn, const ir::Op& gemm_loop);

// The `using GemmLoop_... = GemmMainLoop<...>;` lines (with what they mean) for every GemmLoop
// in the function; empty when there is none.
std::string gemm_loop_declarations(const ir::Function& fn);

// The TMA tensor maps (tile2cu::GemmTensorMaps) a kernel takes as `__grid_constant__`
// parameters: one per distinct (A, B, configuration) of its GemmLoops whose sm_90a main loop
// can be fed by the copy engine (wgmma loop, rank-2 operands). The launcher encodes them.
struct GemmTensorMapParam {
  std::string name;    // "A_B_tma"
  std::string config;  // "GemmLoop_128x256x64"
  std::string a, b;    // the operand arrays
};
std::vector<GemmTensorMapParam> gemm_tensor_map_params(const ir::Function& fn);

// The parameter a GemmLoop reads its tensor maps from; empty when it has none.
std::string gemm_tensor_maps_name(const ir::Function& fn, const ir::Op& gemm_loop);

}  // namespace tile2cu
