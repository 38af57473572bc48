// The GEMM k-loop recognition pass (src/ir/passes/gemm_loop.cpp): which loops become one
// gemm_loop op, with what, and which stay loops.
#include <gtest/gtest.h>

#include <memory>

#include "frontend/parser.hpp"
#include "ir/passes/dce.hpp"
#include "ir/passes/gemm_loop.hpp"
#include "ir/printer.hpp"
#include "ir/verifier.hpp"
#include "sema/sema.hpp"
#include "support/diagnostic.hpp"

namespace tile2cu {
namespace {

// A GEMM kernel whose k-loop body is `body` (a, b loaded from A, B; acc carried).
ir::Function gemm_kernel(const std::string& body, const std::string& dtype = "bfloat16",
                         const std::string& acc_dtype = "ct.float32") {
  std::string source =
      "import cuda.tile as ct\n"
      "@ct.kernel\n"
      "def k(A, B, C):\n"
      "    row = ct.bid(0)\n"
      "    col = ct.bid(1)\n"
      "    acc = ct.zeros((128, 128), dtype=" + acc_dtype + ")\n"
      "    for k in range(ct.cdiv(A.shape[1], 32)):\n" + body +
      "    ct.store(C, index=(row, col), tile=acc.astype(C.dtype))\n";
  auto file = std::make_shared<SourceFile>("k.py", source);
  auto module = std::make_shared<const ast::Module>(parse_module(file));
  auto scope = sema::evaluate_module(module);
  KernelSignature s = parse_signature("A=" + dtype + "[?, ?], B=" + dtype + "[?, ?], C=" + dtype + "[?, ?]", "--sig");
  s.kernel = "k";
  ir::Function fn = sema::specialize(*scope, s);
  ir::eliminate_dead_code(fn);
  ir::recognise_gemm_loops(fn);
  ir::verify(fn);
  return fn;
}

const char* kPlainBody =
    "        a = ct.load(A, index=(row, k), shape=(128, 32), padding_mode=ct.PaddingMode.ZERO)\n"
    "        b = ct.load(B, index=(k, col), shape=(32, 128), padding_mode=ct.PaddingMode.ZERO)\n"
    "        acc = ct.mma(a, b, acc)\n";

bool has_op(const ir::Block& b, ir::OpKind kind) {
  for (const ir::Op& op : b.ops) {
    if (op.kind == kind) return true;
    for (const ir::Block& r : op.regions)
      if (has_op(r, kind)) return true;
  }
  return false;
}

TEST(GemmLoop, PlainLoopBecomesOneOp) {
  ir::Function fn = gemm_kernel(kPlainBody);
  EXPECT_FALSE(has_op(fn.body, ir::OpKind::For));
  std::string ir = ir::print_function(fn);
  EXPECT_NE(ir.find("gemm_loop A shape=(128, 32) x B shape=(32, 128) stages=4"), std::string::npos) << ir;
}

// cuTile's BatchMatMul sample loads K in steps of 128 at 16 bits: two rows of 128 bytes, one stage
// of which would not leave room for two. The main loop takes 64-wide steps over the same K range.
TEST(GemmLoop, WideKStepRunsAsLineWideSteps) {
  ir::Function fn = gemm_kernel(
      "        a = ct.load(A, index=(row, k), shape=(128, 128), padding_mode=ct.PaddingMode.ZERO)\n"
      "        b = ct.load(B, index=(k, col), shape=(128, 128), padding_mode=ct.PaddingMode.ZERO)\n"
      "        acc = ct.mma(a, b, acc)\n");
  EXPECT_FALSE(has_op(fn.body, ir::OpKind::For));
  std::string ir = ir::print_function(fn);
  EXPECT_NE(ir.find("gemm_loop A shape=(128, 64) x B shape=(64, 128)"), std::string::npos) << ir;
  EXPECT_NE(ir.find("= constant 2 : i32"), std::string::npos) << ir;
  EXPECT_NE(ir.find("= binary mul"), std::string::npos) << ir;  // k_end doubled; k_begin 0 stays 0
}

TEST(GemmLoop, Tf32CastsAreFoldedIn) {
  ir::Function fn = gemm_kernel(
      "        a = ct.load(A, index=(row, k), shape=(128, 32)).astype(ct.tfloat32)\n"
      "        b = ct.load(B, index=(k, col), shape=(32, 128)).astype(ct.tfloat32)\n"
      "        acc = ct.mma(a, b, acc)\n",
      "float32");
  EXPECT_TRUE(has_op(fn.body, ir::OpKind::GemmLoop));
}

TEST(GemmLoop, TransposedBIsRecognised) {
  ir::Function fn = gemm_kernel(
      "        a = ct.load(A, index=(row, k), shape=(128, 32))\n"
      "        b = ct.load(B, index=(k, col), shape=(32, 128), order=(1, 0))\n"
      "        acc = ct.mma(a, b, acc)\n");
  EXPECT_FALSE(has_op(fn.body, ir::OpKind::For));
  std::string ir = ir::print_function(fn);
  EXPECT_NE(ir.find("b_order=(1, 0)"), std::string::npos) << ir;
}

TEST(GemmLoop, OtherShapesStayLoops) {
  // k in the wrong index position, a NaN padding, an extra store in the body, an index computed
  // from k; f32 without the tf32 cast, int8: each keeps the general loop and its mma.
  const char* bodies[] = {
      "        a = ct.load(A, index=(row, k), shape=(128, 32))\n"
      "        b = ct.load(B, index=(col, k), shape=(32, 128), order=(1, 0))\n"
      "        acc = ct.mma(a, b, acc)\n",
      "        a = ct.load(A, index=(row, k), shape=(128, 32), padding_mode=ct.PaddingMode.NAN)\n"
      "        b = ct.load(B, index=(k, col), shape=(32, 128))\n"
      "        acc = ct.mma(a, b, acc)\n",
      "        a = ct.load(A, index=(row, k), shape=(128, 32))\n"
      "        b = ct.load(B, index=(k, col), shape=(32, 128))\n"
      "        acc = ct.mma(a, b, acc)\n"
      "        ct.store(C, index=(row, k), tile=a)\n",
      "        a = ct.load(A, index=(row, k * 2), shape=(128, 32))\n"
      "        b = ct.load(B, index=(k * 2, col), shape=(32, 128))\n"
      "        acc = ct.mma(a, b, acc)\n",
  };
  for (const char* body : bodies) {
    ir::Function fn = gemm_kernel(body);
    EXPECT_TRUE(has_op(fn.body, ir::OpKind::For)) << body;
    EXPECT_FALSE(has_op(fn.body, ir::OpKind::GemmLoop)) << body;
    EXPECT_TRUE(has_op(fn.body, ir::OpKind::Mma)) << body;
  }
  EXPECT_FALSE(has_op(gemm_kernel(kPlainBody, "float32").body, ir::OpKind::GemmLoop));
  EXPECT_FALSE(has_op(gemm_kernel(kPlainBody, "int8", "ct.int32").body, ir::OpKind::GemmLoop));
}

TEST(GemmLoop, StagesFitTheBudget) {
  EXPECT_EQ(ir::gemm_pipeline_stages(DType::BFloat16, 128, 256, 32), 4);
  EXPECT_EQ(ir::gemm_pipeline_stages(DType::BFloat16, 128, 256, 64), 3);
  EXPECT_EQ(ir::gemm_pipeline_stages(DType::BFloat16, 256, 256, 128), 0);  // two stages do not fit
  EXPECT_LE(ir::gemm_loop_smem_bytes(DType::BFloat16, 128, 256, 64, 3), ir::kGemmSmemBudget);
}

TEST(GemmLoop, HopperStagesTakeOneSwizzledLinePerRow) {
  // wgmma wants K steps of one 128-byte line: BK = 64 for 16-bit operands, 32 for tf32.
  EXPECT_EQ(ir::gemm_hopper_stages(DType::BFloat16, 128, 256, 64), 4);
  EXPECT_EQ(ir::gemm_hopper_stages(DType::Float32, 128, 128, 32), 4);
  EXPECT_EQ(ir::gemm_hopper_stages(DType::Float32, 128, 128, 64), 0);
  EXPECT_EQ(ir::gemm_hopper_stages(DType::BFloat16, 128, 256, 32), 0);
  // The stages, their alignment and two mbarriers per stage fit sm_90's budget.
  EXPECT_EQ(ir::gemm_hopper_smem_bytes(DType::BFloat16, 128, 256, 64, 4), 4u * 49152u + 1024u + 64u);
  EXPECT_LE(ir::gemm_hopper_smem_bytes(DType::BFloat16, 128, 256, 64, 4), ir::kHopperSmemBudget);
  // tf32 with an N-major B: B's rows padded by 8 floats (C^T = B^T A^T, B^T read into registers);
  // with B^T stored (order=(1, 0)) both operands are unpadded K-major lines.
  EXPECT_EQ(ir::gemm_hopper_stage_bytes(DType::Float32, 128, 128, 32), 4u * (128u * 32u + 32u * 136u));
  EXPECT_EQ(ir::gemm_hopper_stage_bytes(DType::Float32, 128, 128, 32, true), 4u * (128u * 32u + 32u * 128u));
  EXPECT_EQ(ir::gemm_hopper_stages(DType::Float32, 128, 256, 32), 4);
  // 256 x 128 only for tf32 with an N-major B (wgmma N = BM = 256 in C^T = B^T A^T)
  EXPECT_EQ(ir::gemm_hopper_stages(DType::Float32, 256, 128, 32), 4);
  EXPECT_EQ(ir::gemm_hopper_stage_bytes(DType::Float32, 256, 128, 32), 4u * (256u * 32u + 32u * 136u));
  EXPECT_LE(ir::gemm_hopper_smem_bytes(DType::Float32, 256, 128, 32, 4), ir::kHopperSmemBudget);
  EXPECT_EQ(ir::gemm_hopper_stages(DType::Float32, 256, 128, 32, true), 0);
  EXPECT_EQ(ir::gemm_hopper_stages(DType::BFloat16, 256, 128, 64), 0);
  EXPECT_EQ(ir::gemm_hopper_smem_bytes(DType::Float32, 128, 128, 32, 4), 4u * 33792u + 1024u + 64u);
  EXPECT_LE(ir::gemm_hopper_smem_bytes(DType::Float32, 128, 256, 32, 4), ir::kHopperSmemBudget);
}

}  // namespace
}  // namespace tile2cu
