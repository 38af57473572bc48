// The TMA tensor maps a kernel takes as `__grid_constant__` parameters: one per distinct
// (operand arrays, main-loop configuration) among its GemmLoops and AttentionLoops whose sm_90a
// main loop the copy engine can feed. The launcher encodes them (tile2cu::gemm_tensor_maps,
// tile2cu::attention_tensor_maps); the loop reads them through a pointer.
#pragma once

#include <string>
#include <vector>

#include "ir/ir.hpp"

namespace tile2cu {

struct TensorMapParam {
  std::string name;     // "A_B_tma"
  std::string type;     // "GemmTensorMaps" or "AttentionTensorMaps"
  std::string encoder;  // "gemm_tensor_maps" or "attention_tensor_maps"
  std::string config;   // "GemmLoop_128x256x64"
  std::string a, b;     // the operand arrays: A and B, or K and V
};
std::vector<TensorMapParam> tensor_map_params(const ir::Function& fn);

// The parameter a GemmLoop or AttentionLoop reads its tensor maps from; empty when it has none.
std::string tensor_maps_name(const ir::Function& fn, const ir::Op& loop);

}  // namespace tile2cu
