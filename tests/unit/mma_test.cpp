// ct.mma / ct.matmul / @ in sema (spec c.11): result types, the accumulator table, matmul's
// promotion and cast back, 1-D squeezing, batch broadcasting; and the shared-memory plan.
#include <gtest/gtest.h>

#include <cctype>
#include <memory>

#include "emit/mma_plan.hpp"
#include "frontend/parser.hpp"
#include "ir/printer.hpp"
#include "ir/verifier.hpp"
#include "sema/sema.hpp"
#include "support/diagnostic.hpp"

namespace tile2cu {
namespace {

// The number of dims in a shape literal such as "(16, 32)" or "(32,)".
int rank_of(const std::string& shape) {
  int rank = 0;
  for (size_t i = 0; i < shape.size(); ++i)
    if (std::isdigit(static_cast<unsigned char>(shape[i])) && (i == 0 || !std::isdigit(static_cast<unsigned char>(shape[i - 1]))))
      ++rank;
  return rank;
}

std::string zeros_index(int rank) {
  std::string s = "(0";
  for (int i = 1; i < rank; ++i) s += ", 0";
  return s + (rank == 1 ? ",)" : ")");
}

std::string any_dims(int rank) {
  std::string s = "?";
  for (int i = 1; i < rank; ++i) s += ", ?";
  return s;
}

// A kernel that loads x (shape xs) from a and y (shape ys) from b, and binds r = expr.
ir::Function lower(const std::string& expr, const std::string& xs, const std::string& ys, const std::string& dx,
                   const std::string& dy) {
  std::string source = "import cuda.tile as ct\n"
                       "@ct.kernel\n"
                       "def k(a, b, c):\n"
                       "    x = ct.load(a, index=" + zeros_index(rank_of(xs)) + ", shape=" + xs + ")\n"
                       "    y = ct.load(b, index=" + zeros_index(rank_of(ys)) + ", shape=" + ys + ")\n"
                       "    r = " + expr + "\n"
                       "    ct.store(c, index=(0, 0), tile=ct.zeros((16, 16), dtype=c.dtype))\n";
  auto file = std::make_shared<SourceFile>("k.py", source);
  auto module = std::make_shared<const ast::Module>(parse_module(file));
  auto scope = sema::evaluate_module(module);
  KernelSignature s = parse_signature("a=" + dx + "[" + any_dims(rank_of(xs)) + "], b=" + dy + "[" +
                                          any_dims(rank_of(ys)) + "], c=float32[?, ?]",
                                      "--sig");
  s.kernel = "k";
  ir::Function fn = sema::specialize(*scope, s);
  ir::verify(fn);
  return fn;
}

std::string type_of_r(const ir::Function& fn) {
  for (const ir::ValueInfo& v : fn.values)
    if (v.name == "r") return ir::type_string(v.type);
  return "<unbound>";
}

std::string r_type(const std::string& expr, const std::string& xs, const std::string& ys, const std::string& dx,
                   const std::string& dy) {
  return type_of_r(lower(expr, xs, ys, dx, dy));
}

TEST(Mma, AccumulatorKeepsItsDtype) {
  EXPECT_EQ(r_type("ct.mma(x, y, ct.zeros((16, 8), dtype=ct.float32))", "(16, 32)", "(32, 8)", "float16", "float16"),
            "tile<f32, 16x8>");
  EXPECT_EQ(r_type("ct.mma(x, y, ct.zeros((16, 8), dtype=ct.float16))", "(16, 32)", "(32, 8)", "float16", "float16"),
            "tile<f16, 16x8>");
  EXPECT_EQ(r_type("ct.mma(x, y, ct.zeros((16, 8), dtype=ct.int32))", "(16, 32)", "(32, 8)", "uint8", "int8"),
            "tile<i32, 16x8>");
  EXPECT_EQ(r_type("ct.mma(x.astype(ct.tfloat32), y.astype(ct.tfloat32), ct.zeros((16, 8), dtype=ct.float32))",
                   "(16, 32)", "(32, 8)", "float32", "float32"),
            "tile<f32, 16x8>");
}

TEST(Mma, BatchDimsBroadcast) {
  ir::Function fn = lower("ct.mma(x, y, ct.zeros((4, 16, 8), dtype=ct.float32))", "(4, 16, 32)", "(32, 8)",
                          "bfloat16", "bfloat16");
  EXPECT_EQ(type_of_r(fn), "tile<f32, 4x16x8>");
  // y was reshaped to (1, 32, 8) and broadcast to (4, 32, 8) before the mma.
  std::string ir = ir::print_function(fn);
  EXPECT_NE(ir.find(": tile<bf16, 4x32x8>"), std::string::npos) << ir;
  EXPECT_NE(ir.find("= mma %"), std::string::npos) << ir;
}

TEST(Matmul, PromotesAccumulatesAndCastsBack) {
  // f16 accumulates in f16 (the first allowed acc) and stays f16; int8 goes through int32.
  EXPECT_EQ(r_type("x @ y", "(16, 32)", "(32, 8)", "float16", "float16"), "tile<f16, 16x8>");
  EXPECT_EQ(r_type("ct.matmul(x, y)", "(16, 32)", "(32, 8)", "int8", "int8"), "tile<i8, 16x8>");
  ir::Function fn = lower("x @ y", "(16, 32)", "(32, 8)", "int8", "int8");
  std::string ir = ir::print_function(fn);
  size_t mma = ir.find("= mma %");
  ASSERT_NE(mma, std::string::npos) << ir;
  EXPECT_EQ(ir.substr(ir.find(':', mma), 18), ": tile<i32, 16x8>\n") << ir;
  // bf16 with f32 promotes to f32.
  EXPECT_EQ(r_type("x @ y", "(16, 32)", "(32, 8)", "bfloat16", "float32"), "tile<f32, 16x8>");
}

TEST(Matmul, OneDimensionalOperandsSqueeze) {
  EXPECT_EQ(r_type("x @ y", "(32,)", "(32, 8)", "float16", "float16"), "tile<f16, 8>");
  EXPECT_EQ(r_type("x @ y", "(16, 32)", "(32,)", "float16", "float16"), "tile<f16, 16>");
  EXPECT_EQ(r_type("x @ y", "(32,)", "(32,)", "float16", "float16"), "f16");
}

TEST(MmaPlan, TensorCoresPadRowsAndStageTheAccumulator) {
  ir::Function fn = lower("ct.mma(x, y, ct.zeros((16, 8), dtype=ct.float32))", "(16, 32)", "(32, 8)",
                          "float16", "float16");
  const ir::Op* mma = nullptr;
  for (const ir::Op& op : fn.body.ops)
    if (op.kind == ir::OpKind::Mma) mma = &op;
  ASSERT_NE(mma, nullptr);
  // A: 16 rows of 32 + 8 halves; B: 32 rows of 8 + 8 halves; C: 16 x 8 floats.
  EXPECT_EQ(mma_smem_bytes(fn, *mma), 16u * 40 * 2 + 32u * 16 * 2 + 16u * 8 * 4);
  // int8: B staged column by column (8 rows of 32 + 16 bytes), C as int32.
  ir::Function eight_bit = lower("ct.mma(x, y, ct.zeros((16, 8), dtype=ct.int32))", "(16, 32)", "(32, 8)",
                                 "int8", "int8");
  for (const ir::Op& op : eight_bit.body.ops)
    if (op.kind == ir::OpKind::Mma) EXPECT_EQ(mma_smem_bytes(eight_bit, op), 16u * 48 + 8u * 48 + 16u * 8 * 4);
  // K = 16 is under the 8-bit instruction's 32: the exact path, packed rows, no C.
  ir::Function exact = lower("ct.mma(x, y, ct.zeros((16, 8), dtype=ct.int32))", "(16, 16)", "(16, 8)",
                             "int8", "int8");
  for (const ir::Op& op : exact.body.ops)
    if (op.kind == ir::OpKind::Mma) EXPECT_EQ(mma_smem_bytes(exact, op), 16u * 16 + 16u * 8);
}

}  // namespace
}  // namespace tile2cu
