#include "emit/cuda_emitter.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

#include "emit/cpp_names.hpp"
#include "emit/emit_attention.hpp"
#include "emit/emit_gemm.hpp"
#include "emit/kernel_body.hpp"
#include "emit/launch_plan.hpp"
#include "emit/layout_plan.hpp"
#include "emit/runtime_includes.hpp"
#include "emit/templates.hpp"
#include "emit/tensor_maps.hpp"
#include "support/c_text.hpp"

namespace tile2cu {

namespace {

// The C ABI passes 16-bit floats as float, as ctypes and most FFIs have no half type.
const char* c_scalar_type(DType t) {
  if (t == DType::Float16 || t == DType::BFloat16) return "float";
  return dtype_cpp_name(t);
}

const char* dtype_enum(DType t) {
  static const char* names[] = {"Bool", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16",
                                "UInt32", "UInt64", "Float16", "BFloat16", "Float32", "Float64",
                                "TFloat32", "Float8E4M3FN", "Float8E5M2", "Float8E8M0FNU"};
  return names[static_cast<int>(t)];
}

struct HostInterface {
  std::string launcher_params;  // typed launcher
  std::string c_params;         // extern "C"
  std::string c_args;           // extern "C" -> typed launcher
  std::string checks;           // launcher body before the launch
  std::string launch_args;      // flat kernel arguments
  std::string kernel_params;    // __global__ parameters (cutile_python_v2)
  std::string prologue;         // kernel body: arrays rebuilt from flat parameters
};

// A list of arrays (cuTile ABI: pointer to packed 64-bit words, int32 length). The launcher
// checks every item and appends the list's words to `list_words`, the tables of every list
// argument back to back; upload_list_tables then copies them to the device in one go, and each
// list's kernel argument points at its own part.
void list_parameter(const ir::ArrayParam& a, bool first_list, HostInterface& h, std::vector<std::string>& launcher,
                    std::vector<std::string>& c_params, std::vector<std::string>& c_args,
                    std::vector<std::string>& kparams, std::vector<std::string>& kargs) {
  const char* t = dtype_cpp_name(a.dtype);
  std::string elem = a.written ? t : fmt::format("const {}", t);
  std::string list_type = fmt::format("tile2cu::ArrayViewList<{}, {}>", elem, a.rank);
  launcher.push_back(fmt::format("const {}& {}", list_type, a.name));
  c_params.push_back(fmt::format("const int64_t* {}_words, int32_t {}_count", a.name, a.name));
  c_args.push_back(fmt::format("{}::from_words({}_words, {}_count)", list_type, a.name, a.name));
  std::vector<std::string> dims;
  for (const auto& d : a.static_dims) dims.push_back(d ? std::to_string(*d) : "-1");
  if (first_list)
    h.checks += "  std::vector<int64_t> list_words;  // every list argument's table, back to back: one upload\n";
  h.checks += fmt::format("  const size_t {}_at = list_words.size();\n", a.name);
  h.checks += fmt::format(
      "  if (!tile2cu::pack_array_list<int32_t>({}, tile2cu::ArrayFacts<{}>{{{{{}}}, {}, {}}}, list_words))\n"
      "    return cudaErrorInvalidValue;\n",
      a.name, a.rank, fmt::join(dims, ", "), a.aligned16, a.contiguous);
  if (!a.static_strides.empty()) {  // every item must have the signature's static strides
    std::vector<std::string> strides;
    for (const auto& s : a.static_strides) strides.push_back(s ? std::to_string(*s) : "-1");
    h.checks += fmt::format("  if (!tile2cu::list_has_strides({}, {{{}}})) return cudaErrorInvalidValue;\n", a.name,
                            fmt::join(strides, ", "));
  }
  kparams.push_back(fmt::format("const int64_t* {}_table, int32_t {}_size", a.name, a.name));
  kargs.push_back(fmt::format("list_table.data() + {}_at, static_cast<int32_t>({}.items.size())", a.name, a.name));
  h.prologue += fmt::format("  const ArrayList<{}, {}> {}{{{}_table, {}_size}};\n", t, a.rank, a.name, a.name, a.name);
}

void upload_list_tables(HostInterface& h) {
  h.checks += "  tile2cu::DeviceTable list_table;\n";
  h.checks += "  if (cudaError_t e = list_table.upload(list_words, stream)) return e;\n";
}

// Parameter lists are printed one group per line: the stream and grid, then each parameter
// (an array's pointer, shape and strides stay together).
std::string wrap(const std::vector<std::string>& groups) {
  return fmt::format("\n    {}", fmt::join(groups, ",\n    "));
}

HostInterface host_interface(const ir::Function& fn, const LayoutPlan& plan) {
  HostInterface h;
  std::vector<std::string> launcher{"cudaStream_t stream, dim3 grid"};
  std::vector<std::string> c_params{"void* stream, unsigned grid_x, unsigned grid_y, unsigned grid_z"};
  std::vector<std::string> c_args{"static_cast<cudaStream_t>(stream), dim3(grid_x, grid_y, grid_z)"};
  std::vector<std::string> kparams, kargs;
  h.checks += "  if (!tile2cu::grid_ok(grid.x, grid.y, grid.z)) return cudaErrorInvalidConfiguration;\n";
  bool any_list = false;
  // An array nothing reads (its load was dead) keeps its kernel parameters, the calling
  // convention, but gets no Array view: nvcc warns about an unused variable (#177-D).
  const std::vector<bool> referenced = ir::referenced_arrays(fn);
  for (auto [is_array, i] : fn.param_order) {
    if (!is_array) {
      const ir::ScalarParam& s = fn.scalars[i];
      launcher.push_back(fmt::format("{} {}", dtype_cpp_name(s.dtype), s.name));
      c_params.push_back(fmt::format("{} {}", c_scalar_type(s.dtype), s.name));
      c_args.push_back(std::string(c_scalar_type(s.dtype)) == dtype_cpp_name(s.dtype)
                           ? s.name
                           : fmt::format("{}({})", dtype_cpp_name(s.dtype), s.name));
      kparams.push_back(fmt::format("{} {}", dtype_cpp_name(s.dtype), s.name));
      kargs.push_back(s.name);
      continue;
    }
    const ir::ArrayParam& a = fn.arrays[i];
    if (a.is_list) {
      list_parameter(a, !any_list, h, launcher, c_params, c_args, kparams, kargs);
      any_list = true;
      continue;
    }
    const char* t = dtype_cpp_name(a.dtype);
    std::string elem = a.written ? t : fmt::format("const {}", t);
    launcher.push_back(fmt::format("tile2cu::ArrayView<{}, {}> {}", elem, a.rank, a.name));
    std::vector<std::string> shape, strides, c_group{fmt::format("{}void* {}_data", a.written ? "" : "const ", a.name)};
    for (int d = 0; d < a.rank; ++d) shape.push_back(fmt::format("{}_shape_{}", a.name, d));
    for (int d = 0; d < a.rank; ++d) strides.push_back(fmt::format("{}_stride_{}", a.name, d));
    for (const auto& n : shape) c_group.push_back("int64_t " + n);
    for (const auto& n : strides) c_group.push_back("int64_t " + n);
    c_params.push_back(fmt::format("{}", fmt::join(c_group, ", ")));
    c_args.push_back(fmt::format("tile2cu::ArrayView<{}, {}>(static_cast<{}*>({}_data), {{{}}}, {{{}}})", elem,
                                 a.rank, elem, a.name, fmt::join(shape, ", "), fmt::join(strides, ", ")));
    std::string dev = a.name + "_arg";
    h.checks += fmt::format("  tile2cu::Array<{}, {}> {};\n", t, a.rank, dev);
    h.checks += fmt::format("  if (!tile2cu::to_device_array<int32_t>({}, {})) return cudaErrorInvalidValue;\n",
                            a.name, dev);
    for (int d = 0; d < a.rank; ++d)
      if (a.static_dims[d])
        h.checks += fmt::format("  if ({}.shape[{}] != {}) return cudaErrorInvalidValue;\n", a.name, d, *a.static_dims[d]);
    if (a.aligned16)
      h.checks += fmt::format("  if (reinterpret_cast<uintptr_t>({}.data) % 16 != 0) return cudaErrorMisalignedAddress;\n", a.name);
    if (a.contiguous)
      h.checks += fmt::format("  if ({}.strides[{}] != 1) return cudaErrorInvalidValue;\n", a.name, a.rank - 1);
    // A static stride: the launch must have it, and the kernel addresses with the constant.
    std::vector<std::string> view_strides = strides;
    for (int d = 0; d < static_cast<int>(a.static_strides.size()); ++d) {
      if (!a.static_strides[d]) continue;
      h.checks += fmt::format("  if ({}.strides[{}] != {}) return cudaErrorInvalidValue;\n", a.name, d, *a.static_strides[d]);
      view_strides[d] = std::to_string(*a.static_strides[d]);
    }
    std::vector<std::string> kgroup{fmt::format("{}* {}_data", t, a.name)}, agroup{dev + ".data"};
    for (const auto& n : shape) kgroup.push_back("int32_t " + n);
    for (const auto& n : strides) kgroup.push_back("int32_t " + n);
    for (int d = 0; d < a.rank; ++d) agroup.push_back(fmt::format("{}.shape[{}]", dev, d));
    for (int d = 0; d < a.rank; ++d) agroup.push_back(fmt::format("{}.stride[{}]", dev, d));
    kparams.push_back(fmt::format("{}", fmt::join(kgroup, ", ")));
    kargs.push_back(fmt::format("{}", fmt::join(agroup, ", ")));
    if (referenced[static_cast<size_t>(i)])
      h.prologue += fmt::format("  const Array<{}, {}> {}{{{}_data, {{{}}}, {{{}}}}};\n", t, a.rank, a.name, a.name,
                                fmt::join(shape, ", "), fmt::join(view_strides, ", "));
  }
  if (any_list) upload_list_tables(h);
  for (const TensorMapParam& p : tensor_map_params(fn)) {
    kparams.push_back(fmt::format("const __grid_constant__ {} {}", p.type, p.name));
    kargs.push_back(p.name);
  }
  if (plan.blocks_per_cta > 1) {  // the grid's blocks along x: CTAs no longer count them
    kparams.push_back("int32_t blocks_x");
    kargs.push_back("static_cast<int32_t>(grid.x)");
  }
  h.launcher_params = wrap(launcher);
  h.c_params = wrap(c_params);
  h.c_args = wrap(c_args);
  h.kernel_params = wrap(kparams);
  h.launch_args = wrap(kargs);
  return h;
}

std::vector<std::string> dispatcher_params(const ir::Function& fn) {
  std::vector<std::string> params{"cudaStream_t stream, dim3 grid"};
  for (auto [is_array, i] : fn.param_order)
    params.push_back(is_array ? fmt::format("const tile2cu::AnyArray& {}", fn.arrays[i].name)
                              : fmt::format("tile2cu::AnyScalar {}", fn.scalars[i].name));
  return params;
}

std::string dispatcher(const std::string& kernel, const std::vector<const ir::Function*>& specs) {
  std::vector<std::string> params = dispatcher_params(*specs[0]);
  std::string cases;
  for (const ir::Function* fn : specs) {
    std::vector<std::string> conds, args{"stream", "grid"};
    for (auto [is_array, i] : fn->param_order) {
      if (is_array) {
        const ir::ArrayParam& a = fn->arrays[i];
        conds.push_back(fmt::format("{}.is(tile2cu::DType::{}, {})", a.name, dtype_enum(a.dtype), a.rank));
        args.push_back(fmt::format("{}.view<{}{}, {}>()", a.name, a.written ? "" : "const ",
                                   dtype_cpp_name(a.dtype), a.rank));
      } else {
        const ir::ScalarParam& s = fn->scalars[i];
        conds.push_back(fmt::format("{}.dtype == tile2cu::DType::{}", s.name, dtype_enum(s.dtype)));
        args.push_back(fmt::format("{}.as<{}>()", s.name, dtype_cpp_name(s.dtype)));
      }
    }
    std::string cond = conds.empty() ? "true" : fmt::format("{}", fmt::join(conds, " && "));
    cases += fmt::format("  if ({}) return launch_{}({});\n", cond, fn->spec_name, fmt::join(args, ", "));
  }
  return render("dispatcher", {{"kernel", kernel}, {"params", wrap(params)},
                               {"cases", cases}});
}

// Replaces each restore marker by a #line directive naming its own place in the .cu.
std::string restore_line_numbers(const std::string& text, const std::string& cu_name) {
  std::string out;
  int line = 1;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view l(text.data() + pos, end - pos);
    if (l == kRestoreLineMarker) out += fmt::format("#line {} \"{}\"", line + 1, c_string_body(cu_name));
    else out.append(l);
    if (end < text.size()) out += '\n';
    ++line;
    pos = end + 1;
  }
  return out;
}

// One static_assert per main-loop configuration: the shared memory the launcher asks for (the
// transpiler's arithmetic in src/ir/passes) covers what the runtime's configuration uses, so a
// change to one of the two computations cannot leave the other behind unnoticed.
std::string main_loop_smem_checks(const ir::Function& fn, const LayoutPlan& plan) {
  const size_t hopper = plan.hopper_smem_bytes > 0 ? plan.hopper_smem_bytes : plan.smem_bytes;
  std::set<std::string> seen;
  std::string out;
  ir::for_each_op(fn.body, [&](const ir::Op& op) {
    std::string name, condition;
    if (op.kind == ir::OpKind::GemmLoop) {
      name = gemm_loop_config_name(fn, op);
      condition = fmt::format("{}::kSmemBytes <= {}", name, plan.smem_bytes);
      if (op.hopper_stages > 0) condition += fmt::format(" && {}::kHopperSmemBytes <= {}", name, hopper);
    } else if (op.kind == ir::OpKind::AttentionLoop) {
      name = attention_loop_config_name(fn, op);
      condition = fmt::format("{}::kSmemBytes <= {}", name, plan.smem_bytes);
    }
    if (name.empty() || !seen.insert(name).second) return;
    out += fmt::format("static_assert({},\n              \"the launcher's shared memory covers the main loop's\");\n",
                       condition);
  });
  return out;
}

// The launcher's test that every block's tiles of plan.launch_whole are whole, one per distinct
// access; it picks the kernel's copy for kTilesWhole (launch_whole_tiles.hpp).
std::string whole_at_launch_test(const ir::Function& fn, const LayoutPlan& plan) {
  std::vector<std::string> tests;
  std::vector<const ir::Op*> accesses;
  for (const LaunchWholeAccess& a : plan.launch_whole) {
    accesses.push_back(a.access);
    const ir::Op& op = *a.access;
    std::vector<std::string> index;
    for (const LaunchIndexTerm& t : a.index)
      index.push_back(t.block_axis >= 0 ? fmt::format("tile2cu::LaunchIndex::bid({})", t.block_axis)
                                        : std::to_string(t.literal));
    const std::string& name = fn.arrays[op.param].name;
    std::string test = fmt::format("tile2cu::whole_in_every_block<{}::{}>({}_arg, {{{}}}, grid)", fn.spec_name,
                                   plan.layout(fn.type(accessed_tile(op)).shape).name, name, fmt::join(index, ", "));
    if (std::find(tests.begin(), tests.end(), test) == tests.end()) tests.push_back(test);
  }
  std::string out = fmt::format("  // Every block's tiles of {} whole (in bounds, aligned): the kernel's copy without\n"
                                "  // their checked paths runs ...\n  const bool tiles_whole =",
                                accessed_arrays(fn, accesses));
  for (size_t i = 0; i < tests.size(); ++i) out += fmt::format("\n      {}{}", tests[i], i + 1 < tests.size() ? " &&" : ";\n");
  return out;
}

// The constants that say how blocks map onto CTAs, with why.
std::string cta_shape(const LayoutPlan& plan) {
  if (plan.blocks_per_cta == 1)
    return fmt::format(
        "// One CTA runs one block. A tile lives in registers, spread over the CTA's threads in runs of\n"
        "// consecutive elements (see tile2cu/layout.cuh).\n"
        "constexpr int kThreads = {};\n",
        plan.threads);
  return fmt::format(
      "// Small tiles: one CTA runs kBlocksPerCta blocks side by side, kThreads threads each, so that\n"
      "// small blocks do not make small CTAs and a launch-bound grid. A tile lives in registers,\n"
      "// spread over its block's threads in runs of consecutive elements (see tile2cu/layout.cuh);\n"
      "// the threads of a block never wait for other blocks'.\n"
      "constexpr int kThreads = {};\n"
      "constexpr int kBlocksPerCta = {};\n"
      "constexpr int kCtaThreads = kThreads * kBlocksPerCta;\n",
      plan.threads, plan.blocks_per_cta);
}

}  // namespace

EmittedFiles emit_cuda(const std::vector<ir::Function>& python_specs, const EmitOptions& options) {
  // Every Python name in its C++ spelling from here on (cpp_names.hpp).
  std::vector<ir::Function> specs;
  for (const ir::Function& fn : python_specs) specs.push_back(with_cpp_names(fn));
  std::string body, declarations;
  std::vector<std::string> names;
  std::map<std::string, std::vector<const ir::Function*>> by_kernel;
  std::vector<std::string> kernel_order;
  nlohmann::json launch_plans = nlohmann::json::array();
  for (const ir::Function& fn : specs) {
    const LayoutPlan plan = plan_layouts(fn);
    launch_plans.push_back(launch_plan(fn, plan));
    // threads_and_vec: the layout's arguments after the shape, `{}` standing for its run length.
    auto blocked_layouts = [&](std::string_view indent, const std::string& threads_and_vec) {
      std::string out;
      for (const auto& [shape, l] : plan.layouts) {
        std::vector<std::string> dims;
        for (int64_t d : shape) dims.push_back(std::to_string(d));
        out += fmt::format("{}using {} = BlockedLayout<Shape<{}>, {}>;\n", indent, l.name, fmt::join(dims, ", "),
                           fmt::format(fmt::runtime(threads_and_vec), l.vec));
      }
      return out;
    };
    const bool small_tiles = plan.blocks_per_cta > 1;
    std::string layouts = blocked_layouts("", small_tiles ? "kThreads, {}, kBlocksPerCta" : "kThreads, {}");
    layouts += gemm_loop_declarations(fn);
    layouts += attention_loop_declarations(fn);
    layouts += main_loop_smem_checks(fn, plan);
    HostInterface h = host_interface(fn, plan);
    std::string prologue = h.prologue;
    if (small_tiles)
      prologue = "  // This thread's block along x: its CTA's first block, plus its own place in the CTA.\n"
                 "  const int32_t block_x = int32_t(blockIdx.x) * kBlocksPerCta + int32_t(threadIdx.x) / kThreads;\n"
                 "  if (block_x >= blocks_x) return;  // a place of the last CTA past the grid's end\n" +
                 prologue;
    const bool dynamic_smem = std::max(plan.smem_bytes, plan.hopper_smem_bytes) > kMaxStaticScratchBytes;
    std::string launch_setup;
    const std::vector<TensorMapParam> tensor_maps = tensor_map_params(fn);
    if (plan.hopper_smem_bytes > 0 || !tensor_maps.empty())
      launch_setup = fmt::format(
          "  // Compute capability: sm_90 and up get {}.\n"
          "  int device = 0, major = 0;\n"
          "  if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return e;\n"
          "  if (cudaError_t e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device); e != cudaSuccess)\n"
          "    return e;\n",
          plan.hopper_smem_bytes == 0 ? "TMA tensor maps"
          : tensor_maps.empty()       ? "the wgmma loop's shared memory"
                                      : "the wgmma loop's shared memory and TMA tensor maps");
    if (dynamic_smem && plan.hopper_smem_bytes > 0) {
      prologue += fmt::format(
          "  // Scratch for moving tile elements between threads and staging mma operands: dynamic\n"
          "  // shared memory, {} bytes ({} on sm_90 and up, for the wgmma main loop's stages).\n"
          "  extern __shared__ __align__(128) unsigned char smem[];\n",
          plan.smem_bytes, plan.hopper_smem_bytes);
      launch_setup += fmt::format(
          "  // Its deeper stages take more shared memory.\n"
          "  const int kSmemBytes = major >= 9 ? {} : {};\n"
          "  if (cudaError_t e = cudaFuncSetAttribute({}::{}, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);\n"
          "      e != cudaSuccess)\n"
          "    return e;\n",
          plan.hopper_smem_bytes, plan.smem_bytes, fn.spec_name, fn.kernel_name);
    } else if (dynamic_smem) {
      prologue += fmt::format(
          "  // Scratch for moving tile elements between threads and staging mma operands:\n"
          "  // kSmemBytes = {} bytes of dynamic shared memory (more than the 48 KiB static limit).\n"
          "  extern __shared__ __align__(128) unsigned char smem[];\n",
          plan.smem_bytes);
      launch_setup += fmt::format(
          "  constexpr int kSmemBytes = {};\n"
          "  if (cudaError_t e = cudaFuncSetAttribute({}::{}, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);\n"
          "      e != cudaSuccess)\n"
          "    return e;\n",
          plan.smem_bytes, fn.spec_name, fn.kernel_name);
    } else if (plan.smem_bytes > 0 && small_tiles) {
      prologue += fmt::format(
          "  // Scratch for moving tile elements between threads (broadcasts, reshapes): each block of\n"
          "  // the CTA has its own.\n"
          "  __shared__ alignas(16) unsigned char smem_of_blocks[kBlocksPerCta][{}];\n"
          "  unsigned char* const smem = smem_of_blocks[threadIdx.x / kThreads];\n",
          plan.smem_bytes);
    } else if (plan.smem_bytes > 0) {
      prologue += fmt::format(
          "  // Scratch for moving tile elements between threads (broadcasts, reshapes).\n"
          "  __shared__ alignas(16) unsigned char smem[{}];\n",
          plan.smem_bytes);
    }
    for (const TensorMapParam& p : tensor_maps)
      launch_setup += fmt::format(
          "  // On sm_90 the copy engine (TMA) fills the main loop's stages: {0}'s and {1}'s tensor maps\n"
          "  // (boxes of {6} and {7} elements; usable = 0 where it cannot describe them: the\n"
          "  // kernel then copies with cp.async).\n"
          "  const tile2cu::{3} {2} = tile2cu::{4}({0}_arg, {1}_arg, {{{5}}}, {{{8}}}, major);\n",
          p.a, p.b, p.name, p.type, p.encoder, fmt::join(p.operands[0].box, ", "),
          fmt::join(p.operands[0].box, " x "), fmt::join(p.operands[1].box, " x "), fmt::join(p.operands[1].box, ", "));
    std::string kernel_template, launch;
    // The launcher's copy for whole tiles may run on more threads than the checked one
    // (layout_plan.cpp, "The copy for whole big tiles"): it then declares its own layouts.
    const bool whole_copy_shape = plan.whole_copy_threads > 0;
    const std::string cta_threads = fn.spec_name + (small_tiles ? "::kCtaThreads" : "::kThreads");
    const std::string launch_config =
        fmt::format("<<<{}, {}, {}, stream>>>({});\n", small_tiles ? "ctas" : "grid",
                    whole_copy_shape ? "threads" : cta_threads, dynamic_smem ? "kSmemBytes" : "0", h.launch_args);
    if (small_tiles)
      launch_setup += fmt::format(
          "  // kBlocksPerCta blocks to a CTA: the grid's blocks along x fill ceil(x / kBlocksPerCta) CTAs.\n"
          "  const dim3 ctas((grid.x + {0}::kBlocksPerCta - 1) / {0}::kBlocksPerCta, grid.y, grid.z);\n",
          fn.spec_name);
    if (plan.launch_whole.empty()) {
      launch = fmt::format("  {}::{}{}", fn.spec_name, fn.kernel_name, launch_config);
    } else {
      kernel_template =
          "// Compiled twice: the launcher runs the copy for kTilesWhole = true when it has proved every\n"
          "// block's tiles whole (see whole_at_launch).\ntemplate <bool kTilesWhole>\n";
      const std::string whole_threads = whole_copy_shape ? fn.spec_name + "::kWholeThreads" : cta_threads;
      launch = whole_at_launch_test(fn, plan) +
               fmt::format("  // ... where that copy keeps as many threads on an SM as the checked one (asked once).\n"
                           "  static const bool whole_copy_fits = tile2cu::keeps_occupancy(\n"
                           "      {0}::{1}<true>, {3}, {0}::{1}<false>, {5}, 0);\n"
                           "  const bool use_whole_copy = tiles_whole && whole_copy_fits;\n"
                           "  const auto kernel = use_whole_copy ? {0}::{1}<true> : {0}::{1}<false>;\n"
                           "{4}"
                           "  kernel{2}",
                           fn.spec_name, fn.kernel_name, launch_config, whole_threads,
                           whole_copy_shape ? fmt::format("  const int threads = use_whole_copy ? {} : {}::kThreads;\n",
                                                          whole_threads, fn.spec_name)
                                            : "",
                           cta_threads);
    }
    if (whole_copy_shape) {
      layouts += fmt::format(
          "// The copy for whole tiles runs on more threads, with its own layouts (the checked copy, for\n"
          "// ragged tiles, keeps the ones above).\n"
          "constexpr int kWholeThreads = {};\n",
          plan.whole_copy_threads);
      prologue = "  // This copy's thread count and layouts.\n"
                 "  constexpr int kCopyThreads = kTilesWhole ? kWholeThreads : kThreads;\n" +
                 blocked_layouts("  ", "kCopyThreads, {}") + prologue;
    }
    const std::string& signature = fn.signature;
    // The kernel's occupancy= wins, for every copy. A count the plan chose says why in the code;
    // a copy for whole tiles with its own shape has its own count.
    std::string threads = small_tiles ? "kCtaThreads" : "kThreads", min_blocks, launch_bounds_note;
    if (fn.occupancy > 0) {
      min_blocks = fmt::format(", {}", fn.occupancy);
    } else if (whole_copy_shape) {
      threads = "kTilesWhole ? kWholeThreads : kThreads";
      // 0 leaves the count out of the PTX (.minnctapersm): no ask. A count of 1 is not the same:
      // ptxas then took softmax's checked copy from 48 to 79 registers.
      const bool same_ask = plan.whole_copy_min_blocks_per_sm == plan.min_blocks_per_sm;
      min_blocks = same_ask ? fmt::format(", {}", plan.min_blocks_per_sm)
                            : fmt::format(", kTilesWhole ? {} : {}", plan.whole_copy_min_blocks_per_sm,
                                          plan.min_blocks_per_sm);
      launch_bounds_note = fmt::format(
          "// A big tile: the copy for whole tiles asks for {0} blocks per SM, which caps each thread's\n"
          "// registers so that {0} blocks' loads are in flight on an SM together. The checked copy {1}.\n",
          plan.whole_copy_min_blocks_per_sm,
          same_ask                   ? std::string("too")
          : plan.min_blocks_per_sm > 0 ? fmt::format("asks for {}", plan.min_blocks_per_sm)
                                       : std::string("asks for none (0)"));
    } else if (plan.min_blocks_per_sm > 0) {
      min_blocks = fmt::format(", {}", plan.min_blocks_per_sm);
      launch_bounds_note = fmt::format(
          "// A big tile: {0} blocks per SM asked for, which caps each thread's registers so that\n"
          "// {0} blocks' loads are in flight on an SM together.\n",
          plan.min_blocks_per_sm);
    }
    body += render("specialization",
                   {{"spec", fn.spec_name},
                    {"kernel", fn.kernel_name},
                    {"signature", signature},
                    {"cta_shape", cta_shape(plan)},
                    {"layouts", layouts},
                    {"launch_threads", threads},
                    {"min_blocks", min_blocks},
                    {"launch_bounds_note", launch_bounds_note},
                    {"kernel_template", kernel_template},
                    {"launch", launch},
                    {"params", h.kernel_params},
                    {"prologue", prologue},
                    {"body", emit_kernel_body(fn, plan, options.line_directives)},
                    {"launcher_params", h.launcher_params},
                    {"launcher_checks", h.checks},
                    {"launch_setup", launch_setup},
                    {"c_params", h.c_params},
                    {"c_args", h.c_args}});
    declarations += render("declaration", {{"kernel", fn.kernel_name},
                                           {"signature", signature},
                                           {"spec", fn.spec_name},
                                           {"launcher_params", h.launcher_params},
                                           {"c_params", h.c_params}});
    names.push_back(fn.spec_name);
    if (!by_kernel.count(fn.kernel_name)) kernel_order.push_back(fn.kernel_name);
    by_kernel[fn.kernel_name].push_back(&fn);
  }
  std::string dispatchers;
  for (const auto& k : kernel_order) {
    const auto& list = by_kernel[k];
    // A dispatcher is only useful when it has a choice, and its name must not clash with a
    // launcher's (of any kernel's specialization).
    bool clashes = false, has_list = false;
    for (const ir::Function& fn : specs) clashes |= fn.spec_name == k;
    // AnyArray carries one array; kernels with list parameters are called through launch_<spec>.
    for (const auto* fn : list)
      for (auto [is_array, i] : fn->param_order) has_list |= is_array && fn->arrays[i].is_list;
    if (list.size() < 2 || clashes || has_list) continue;
    dispatchers += dispatcher(k, list);
    declarations += fmt::format("\n// Dispatches on dtypes and ranks to one of the launchers above.\ncudaError_t launch_{}({});\n",
                                k, wrap(dispatcher_params(*list[0])));
  }
  // The runtime's .hpp headers are host code (the launchers'): NVRTC, which compiles only the
  // kernels, does not see them.
  std::string runtime_include_lines, host_include_lines;
  for (const std::string& header : runtime_includes(body + dispatchers))
    (header.ends_with(".hpp") ? host_include_lines : runtime_include_lines) +=
        fmt::format("#include <{}>\n", header);
  if (!host_include_lines.empty())
    host_include_lines = "#if !defined(__CUDACC_RTC__)\n" + host_include_lines + "#endif\n";
  EmittedFiles files;
  files.cu = restore_line_numbers(render("cu_file", {{"version", TILE2CU_VERSION},
                                {"source", comment_safe(options.source_name)},
                                {"spec_list", fmt::format("{}", fmt::join(names, ", "))},
                                {"header", options.header_name},
                                {"runtime_includes", runtime_include_lines},
                                {"host_includes", host_include_lines},
                                {"specializations", body},
                                {"dispatcher", dispatchers}}),
                                  options.cu_name);
  files.cuh = render("header", {{"version", TILE2CU_VERSION},
                                {"source", comment_safe(options.source_name)},
                                {"declarations", declarations}});
  files.launch_plan =
      nlohmann::json{{"format", kLaunchPlanFormat}, {"source", options.source_name}, {"specializations", launch_plans}}
          .dump(1) +
      "\n";
  return files;
}

}  // namespace tile2cu
