#include "emit/emit_attention.hpp"

#include <fmt/format.h>

#include <set>

#include "emit/tensor_maps.hpp"
#include "ir/passes/attention_loop.hpp"

namespace tile2cu {

std::string attention_loop_config_name(const ir::Function& fn, const ir::Op& op) {
  ir::AttentionTile t = ir::attention_tile(fn, op);
  return fmt::format("AttentionLoop_{}x{}x{}", t.bm, t.bn, t.d);
}

std::string attention_loop_declarations(const ir::Function& fn) {
  std::string out;
  std::set<std::string> declared;
  ir::for_each_op(fn.body, [&](const ir::Op& op) {
    if (op.kind != ir::OpKind::AttentionLoop) return;
    std::string name = attention_loop_config_name(fn, op);
    if (!declared.insert(name).second) return;
    ir::AttentionTile t = ir::attention_tile(fn, op);
    DType operand = fn.arrays[op.param].dtype;
    const bool exp2 = op.unary == ir::UnaryKind::Exp2;
    std::string hopper;
    if (ir::attention_uses_wgmma(fn, op))
      hopper = tensor_maps_name(fn, op).empty()
                   ? ";\n// on sm_90a wgmma instead: two warpgroups of 64 rows, q, K and V in 128-byte swizzled lines"
                   : ";\n// on sm_90a wgmma instead: two warpgroups of 64 rows, q, K and V in 128-byte swizzled lines,\n"
                     "// K and V copied by the copy engine (TMA) where the launcher's tensor maps describe them";
    out += fmt::format(
        "// The key loop at {} is a flash-attention main loop (tile2cu/attention_pipeline.cuh):\n"
        "// each CTA takes {} query rows (one warp per {} rows) and walks the keys {} at a time, K and V\n"
        "// tiles (head dim {}) through a ring of {} shared-memory stages that cp.async fills while\n"
        "// mma.sync ({}) computes S = q K^T and acc += P V with the online softmax ({}) in registers{}.\n"
        "// The score's masks run only on tiles where `mask` fails at a corner; elsewhere interior = true.\n"
        "constexpr int k{}_Stages = {};\n"
        "using {} = AttentionMainLoop<{}, {}, {}, {}, k{}_Stages, kThreads, /*Exp2=*/{}>;\n",
        fn.place_of(op), t.bm, t.bm / (ir::attention_threads(fn, op) / 32), t.bn, t.d, op.stages,
        dtype_name(operand), exp2 ? "exp2" : "exp", hopper, name, op.stages, name, dtype_cpp_name(operand), t.bm,
        t.bn, t.d, name, exp2 ? "true" : "false");
  });
  return out;
}

}  // namespace tile2cu
