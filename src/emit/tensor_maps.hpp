// The TMA tensor maps a kernel takes as `__grid_constant__` parameters: one per distinct
// (operand arrays, main-loop configuration) among its GemmLoops and AttentionLoops whose sm_90a
// main loop the copy engine can feed. The launcher encodes them (tile2cu::gemm_tensor_maps,
// tile2cu::attention_tensor_maps); the loop reads them through a pointer.
//
// What is encoded (each operand's box) is decided here, once: the generated C++ launcher passes
// these boxes to the runtime's encoder, and the launch plan (launch_plan.cpp) writes the same
// fields down for the NVRTC launcher, which encodes the maps itself.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/ir.hpp"

namespace tile2cu {

// One CUtensorMap of the struct: the array it describes (an index into fn.arrays, a kernel
// parameter of its own) and the box one copy moves, in elements per axis, outermost first.
struct TensorMapOperand {
  int array = -1;
  std::string field;           // the struct's member: "a", "b" or "k", "v"
  std::vector<uint32_t> box;
};

struct TensorMapParam {
  std::string name;     // "A_B_tma"
  std::string type;     // "GemmTensorMaps" or "AttentionTensorMaps"
  std::string encoder;  // "gemm_tensor_maps" or "attention_tensor_maps"
  std::string config;   // "GemmLoop_128x256x64"
  std::string a, b;     // the operand arrays: A and B, or K and V
  std::vector<TensorMapOperand> operands;  // the struct's two maps, in member order
};

// The struct as runtime/tile2cu/tma.cuh declares both kinds: two CUtensorMaps (128 bytes,
// 128-byte aligned), then `int usable`; its size rounds up to the alignment.
constexpr int kTensorMapBytes = 128;
constexpr int kTensorMapsStructBytes = 3 * kTensorMapBytes;
constexpr int kTensorMapsStructAlign = 128;
constexpr int kTensorMapsUsableOffset = 2 * kTensorMapBytes;

std::vector<TensorMapParam> tensor_map_params(const ir::Function& fn);

// The parameter a GemmLoop or AttentionLoop reads its tensor maps from; empty when it has none.
std::string tensor_maps_name(const ir::Function& fn, const ir::Op& loop);

}  // namespace tile2cu
