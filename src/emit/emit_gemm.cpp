#include "emit/emit_gemm.hpp"

#include <fmt/format.h>

#include <set>

#include "ir/passes/gemm_loop.hpp"

namespace tile2cu {

std::string gemm_loop_config_name(const ir::Function& fn, const ir::Op& op) {
  ir::GemmTile t = ir::gemm_tile(fn, op);
  return fmt::format("GemmLoop_{}x{}x{}{}", t.bm, t.bn, t.bk, ir::gemm_b_transposed(op) ? "_BT" : "");
}

std::string gemm_loop_declarations(const ir::Function& fn) {
  std::string out;
  std::set<std::string> declared;
  ir::for_each_op(fn.body, [&](const ir::Op& op) {
    if (op.kind != ir::OpKind::GemmLoop) return;
    std::string name = gemm_loop_config_name(fn, op);
    if (!declared.insert(name).second) return;
    ir::GemmTile t = ir::gemm_tile(fn, op);
    DType operand = fn.arrays[op.param].dtype;
    bool tf32 = operand == DType::Float32;
    out += fmt::format(
        "// The k-loop at {} is a GEMM main loop (tile2cu/gemm_pipeline.cuh): each CTA computes a\n"
        "// {} x {} tile, K in steps of {}, through a ring of {} shared-memory stages that cp.async fills\n"
        "// while mma.sync ({}) works on the previous ones{}.\n"
        "constexpr int k{}_Stages = {};\n",
        fn.place_of(op), t.bm, t.bn, t.bk, op.stages, tf32 ? "tf32" : dtype_name(operand),
        op.hopper_stages ? fmt::format(";\n// on sm_90a, {} {} feed wgmma (two warpgroups of {}){}", op.hopper_stages,
                                       tf32 && !ir::gemm_b_transposed(op) ? "stages (B's rows padded by 8 floats)" : "unpadded stages",
                                       tf32 && !ir::gemm_b_transposed(op) ? fmt::format("{} x {} of C", t.bm, t.bn / 2)
                                                                          : fmt::format("64 x {}", t.bn),
                                       tf32 && !ir::gemm_b_transposed(op) ? ",\n// computing C^T = B^T A^T: B^T from registers, A's tile as the K-major operand (tf32 wgmma\n// reads shared-memory operands K-major only)" : "")
                           : "",
        name, op.stages);
    if (op.hopper_stages) out += fmt::format("constexpr int k{}_HopperStages = {};\n", name, op.hopper_stages);
    const bool bt = ir::gemm_b_transposed(op);
    std::string extra;
    if (tf32 || op.hopper_stages || bt)
      extra = fmt::format(", {}, {}", tf32 ? "/*Tf32=*/true" : "false",
                          op.hopper_stages ? fmt::format("k{}_HopperStages", name) : "0");
    if (bt) extra += ", /*BTransposed=*/true";
    out += fmt::format("using {} = GemmMainLoop<{}, {}, {}, {}, k{}_Stages, kThreads{}>;\n", name,
                       dtype_cpp_name(operand), t.bm, t.bn, t.bk, name, extra);
  });
  return out;
}

}  // namespace tile2cu
