#include "emit/launch_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "emit/tensor_maps.hpp"
#include "emit/whole_tile_split.hpp"

namespace tile2cu {

using nlohmann::json;

namespace {

// A kernel parameter: its type as the plan names it ("pointer", "int32", "float16", ...) and
// its size in the kernel's parameter buffer, and where its value comes from.
json kernel_param(const std::string& type, int bytes, json value) {
  return json{{"type", type}, {"bytes", bytes}, {"value", std::move(value)}};
}

// Position of array `array_index` in the C entry's parameter order.
int param_position(const ir::Function& fn, int array_index) {
  for (size_t p = 0; p < fn.param_order.size(); ++p)
    if (fn.param_order[p].first && fn.param_order[p].second == array_index) return static_cast<int>(p);
  return -1;
}

json optional_list(const std::vector<std::optional<int64_t>>& values) {
  json out = json::array();
  for (const auto& v : values) out.push_back(v ? json(*v) : json(nullptr));
  return out;
}

// The launcher's whole-tile tests (whole_in_every_block per distinct access), as
// cuda_emitter.cpp's whole_at_launch_test prints them: the block layout's tile shape, run
// length and thread count are what the runtime's whole_tile_fast reads from the layout type.
json whole_tests(const ir::Function& fn, const LayoutPlan& plan) {
  json tests = json::array();
  for (const LaunchWholeAccess& a : plan.launch_whole) {
    const ir::Op& op = *a.access;
    const ir::ArrayParam& array = fn.arrays[op.param];
    const ir::Shape& shape = fn.type(accessed_tile(op)).shape;
    const int vec = plan.layout(shape).vec;
    int64_t elements = 1;
    for (int64_t d : shape) elements *= d;
    json index = json::array();
    for (const LaunchIndexTerm& t : a.index)
      index.push_back(t.block_axis >= 0 ? json{{"bid", t.block_axis}} : json{{"literal", t.literal}});
    const int bytes = dtype_bytes(array.dtype);
    json test{{"param", param_position(fn, op.param)},
              {"tile_shape", shape},
              {"access_bytes", std::min(vec * bytes, 16)},
              // memory.cuh's may_be_whole for the identity order: every thread owns whole runs.
              {"may_be_whole", (elements / vec) % plan.threads == 0},
              {"index", index}};
    if (std::find(tests.begin(), tests.end(), test) == tests.end()) tests.push_back(test);
  }
  return tests;
}

// cuTensorMapEncodeTiled's enumerators (cuda.h) for what tma.cuh's encode_map asks: 128-byte
// swizzled lines (wgmma's layout), no interleave, 256-byte L2 promotion, zeros outside.
constexpr int kTmaInterleaveNone = 0, kTmaSwizzle128B = 3, kTmaL2Promotion256B = 3, kTmaOobFillNone = 0;

int tma_data_type(DType t) {
  switch (t) {
    case DType::Float16: return 6;   // CU_TENSOR_MAP_DATA_TYPE_FLOAT16
    case DType::BFloat16: return 9;  // CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
    default: return -1;              // (tensor_maps.cpp takes 16-bit operands only)
  }
}

// A tensor-map kernel parameter: the struct's bytes, and per CUtensorMap in it what the host
// passes cuTensorMapEncodeTiled, innermost axis first as the driver takes it (global dims and
// byte strides as parts of the operand's C-entry parameter), then `usable`. The launcher encodes
// only on compute capability 9+, and only where every map can be encoded (else usable = 0).
json tensor_maps_param(const ir::Function& fn, const TensorMapParam& t) {
  json maps = json::array();
  for (size_t m = 0; m < t.operands.size(); ++m) {
    const TensorMapOperand& o = t.operands[m];
    const ir::ArrayParam& a = fn.arrays[o.array];
    const int position = param_position(fn, o.array);
    json dims = json::array(), strides = json::array(), box = json::array(), unit = json::array();
    for (int d = 0; d < a.rank; ++d) {
      const int axis = a.rank - 1 - d;
      dims.push_back({{"param", position}, {"part", "shape"}, {"axis", axis}});
      if (d > 0)  // the driver's byte strides of every axis but the innermost
        strides.push_back({{"param", position}, {"part", "stride"}, {"axis", axis}, {"times", dtype_bytes(a.dtype)}});
      box.push_back(o.box[static_cast<size_t>(axis)]);
      unit.push_back(1);
    }
    maps.push_back({{"field", o.field},
                    {"offset", static_cast<int>(m) * kTensorMapBytes},
                    {"param", position},
                    {"dtype", dtype_name(a.dtype)},
                    {"elem_bytes", dtype_bytes(a.dtype)},
                    {"data_type", tma_data_type(a.dtype)},
                    {"rank", a.rank},
                    // encode_map's refusal unless the innermost axis is contiguous
                    {"unit_stride", {{"param", position}, {"part", "stride"}, {"axis", a.rank - 1}}},
                    {"global_dims", dims},
                    {"global_strides", strides},
                    {"box", box},
                    {"element_strides", unit},
                    {"interleave", kTmaInterleaveNone},
                    {"swizzle", kTmaSwizzle128B},
                    {"l2_promotion", kTmaL2Promotion256B},
                    {"oob_fill", kTmaOobFillNone}});
  }
  json value{{"tensor_maps",
              {{"struct", t.type},
               {"name", t.name},
               {"min_compute_major", 9},
               {"maps", maps},
               {"usable", {{"offset", kTensorMapsUsableOffset}, {"type", "int32"}}}}}};
  json param = kernel_param("tensor_maps", kTensorMapsStructBytes, std::move(value));
  param["align"] = kTensorMapsStructAlign;
  return param;
}

}  // namespace

json launch_plan(const ir::Function& fn, const LayoutPlan& plan) {
  json params = json::array(), kparams = json::array();
  std::vector<std::string> host_only;
  for (size_t p = 0; p < fn.param_order.size(); ++p) {
    auto [is_array, i] = fn.param_order[p];
    const int position = static_cast<int>(p);
    if (!is_array) {
      const ir::ScalarParam& s = fn.scalars[i];
      params.push_back({{"kind", "scalar"}, {"name", s.name}, {"dtype", dtype_name(s.dtype)}});
      kparams.push_back(kernel_param(dtype_name(s.dtype), dtype_bytes(s.dtype), {{"param", position}}));
      continue;
    }
    const ir::ArrayParam& a = fn.arrays[i];
    json array{{"kind", a.is_list ? "list" : "array"},
               {"name", a.name},
               {"dtype", dtype_name(a.dtype)},
               {"elem_bytes", dtype_bytes(a.dtype)},
               {"rank", a.rank},
               {"index_type", "int32"},
               {"static_dims", optional_list(a.static_dims)},
               {"static_strides", optional_list(a.static_strides)},
               {"aligned16", a.aligned16},
               {"contiguous", a.contiguous}};
    params.push_back(array);
    if (a.is_list) {
      // The launcher checks each item as pack_array_list does and uploads every list's words
      // (per item pointer, shapes, strides) back to back; the kernel gets its list's part.
      kparams.push_back(kernel_param("pointer", 8, {{"param", position}, {"part", "table"}}));
      kparams.push_back(kernel_param("int32", 4, {{"param", position}, {"part", "count"}}));
      continue;
    }
    kparams.push_back(kernel_param("pointer", 8, {{"param", position}, {"part", "data"}}));
    for (int d = 0; d < a.rank; ++d)
      kparams.push_back(kernel_param("int32", 4, {{"param", position}, {"part", "shape"}, {"axis", d}}));
    for (int d = 0; d < a.rank; ++d)
      kparams.push_back(kernel_param("int32", 4, {{"param", position}, {"part", "stride"}, {"axis", d}}));
  }
  for (const TensorMapParam& t : tensor_map_params(fn)) {
    for (const TensorMapOperand& o : t.operands)
      if (tma_data_type(fn.arrays[o.array].dtype) < 0)
        host_only.push_back(fmt::format("a TMA tensor map of {} '{}' (no driver data type in the plan)",
                                        dtype_name(fn.arrays[o.array].dtype), fn.arrays[o.array].name));
    kparams.push_back(tensor_maps_param(fn, t));
  }
  const bool small_tiles = plan.blocks_per_cta > 1;
  if (small_tiles) kparams.push_back(kernel_param("int32", 4, {{"grid", "x"}}));

  const bool dynamic = std::max(plan.smem_bytes, plan.hopper_smem_bytes) > kMaxStaticScratchBytes;
  const size_t hopper = plan.hopper_smem_bytes > 0 ? plan.hopper_smem_bytes : plan.smem_bytes;
  const int cta_threads = plan.threads * plan.blocks_per_cta;
  const bool whole_copy_shape = plan.whole_copy_threads > 0;
  json kernels;
  if (plan.launch_whole.empty()) {
    kernels["checked"] = fmt::format("&{}::{}", fn.spec_name, fn.kernel_name);
  } else {
    kernels["checked"] = fmt::format("&{}::{}<false>", fn.spec_name, fn.kernel_name);
    kernels["whole"] = fmt::format("&{}::{}<true>", fn.spec_name, fn.kernel_name);
  }
  std::string reason;
  for (size_t k = 0; k < host_only.size(); ++k) reason += (k ? "; " : "") + host_only[k];
  return json{{"spec", fn.spec_name},
              {"kernel", fn.kernel_name},
              {"signature", fn.signature},
              {"host_launcher_only", host_only.empty() ? json(nullptr) : json(reason)},
              {"kernels", kernels},
              // The checked copy runs on a CTA of the layout's threads (times the blocks it
              // holds); the copy for whole tiles on whole_threads.
              {"threads", whole_copy_shape ? plan.threads : cta_threads},
              {"whole_threads", whole_copy_shape ? plan.whole_copy_threads : cta_threads},
              {"occupancy_checked_threads", cta_threads},
              {"blocks_per_cta", plan.blocks_per_cta},
              // Dynamic shared memory: sm_90 and up take the second (a wgmma loop's deeper stages).
              {"dynamic_smem_bytes", dynamic ? plan.smem_bytes : 0},
              {"hopper_dynamic_smem_bytes", dynamic ? hopper : 0},
              {"params", params},
              {"kernel_params", kparams},
              {"whole_tests", whole_tests(fn, plan)}};
}

}  // namespace tile2cu
