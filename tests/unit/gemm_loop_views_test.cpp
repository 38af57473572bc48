// The GEMM k-loop recogniser on arrays that are not kernel parameters: list items and slices,
// picked before the loop or inside it (then hoisted with the loop-invariant scalars).
#include "ir/passes/dce.hpp"
#include "ir/passes/gemm_loop.hpp"
#include "sema_test_util.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::ops_of_kind;

ir::Function recognised(const std::string& body, const std::string& sig) {
  ir::Function fn = compile_kernel(
      "@ct.kernel\n"
      "def k(As, Bs, Cs, g: int, n: int):\n"
      "    row, col = ct.bid(0), ct.bid(1)\n"
      "    acc = ct.zeros((128, 128), dtype=ct.float32)\n"
      "    for k in range(8):\n" + body +
      "    ct.store(Cs[g], index=(row, col), tile=acc.astype(ct.bfloat16))\n",
      sig);
  ir::eliminate_dead_code(fn);
  ir::recognise_gemm_loops(fn);
  ir::verify(fn);
  return fn;
}

const char* kLists = "As=list[bfloat16[?, ?]], Bs=list[bfloat16[?, ?]], Cs=list[bfloat16[?, ?]], g=int32, n=int32";

TEST(GemmLoopViews, ListItemsIndexedInTheLoopAreHoisted) {
  ir::Function fn = recognised(
      "        a = ct.load(As[g], index=(row, k), shape=(128, 64), padding_mode=ct.PaddingMode.ZERO)\n"
      "        b = ct.load(Bs[g], index=(k, col), shape=(64, 128), padding_mode=ct.PaddingMode.ZERO)\n"
      "        acc = ct.mma(a, b, acc)\n",
      kLists);
  EXPECT_TRUE(ops_of_kind(fn, ir::OpKind::For).empty()) << ir::print_function(fn);
  ASSERT_EQ(ops_of_kind(fn, ir::OpKind::GemmLoop).size(), 1u);
  EXPECT_EQ(fn.body.ops.back().kind, ir::OpKind::Store);  // list items now before the gemm_loop
}

TEST(GemmLoopViews, SlicesInTheLoopAreHoisted) {
  ir::Function fn = recognised(
      "        a = ct.load(As[g].slice(0, 0, n), index=(row, k), shape=(128, 64), padding_mode=ct.PaddingMode.ZERO)\n"
      "        b = ct.load(Bs[g], index=(k, col), shape=(64, 128), padding_mode=ct.PaddingMode.ZERO)\n"
      "        acc = ct.mma(a, b, acc)\n",
      kLists);
  EXPECT_TRUE(ops_of_kind(fn, ir::OpKind::For).empty()) << ir::print_function(fn);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::GemmLoop).size(), 1u);
}

TEST(GemmLoopViews, AnItemPickedByKStaysALoop) {
  ir::Function fn = recognised(
      "        a = ct.load(As[k], index=(row, 0), shape=(128, 64), padding_mode=ct.PaddingMode.ZERO)\n"
      "        b = ct.load(Bs[g], index=(k, col), shape=(64, 128), padding_mode=ct.PaddingMode.ZERO)\n"
      "        acc = ct.mma(a, b, acc)\n",
      kLists);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::For).size(), 1u);
  EXPECT_TRUE(ops_of_kind(fn, ir::OpKind::GemmLoop).empty());
}

}  // namespace
}  // namespace tile2cu
