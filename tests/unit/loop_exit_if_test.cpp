// A loop body may end in a runtime if whose branches all leave the loop.
#include "sema_test_util.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::ops_of_kind;

const char* kSig1d = "x=float32[?], y=int32[?], z=int32[?]";

// test_constfold.py::test_fold_nested_if_both_early_terminators_in_loop: a loop body that ends
// in a runtime if whose branches both leave (break / continue) yields nothing; this used to
// fail the IR verifier (an internal error).
TEST(LoopExitIf, BodyEndingInIfThatAlwaysLeaves) {
  ir::Function fn = compile_kernel(
      "@ct.kernel\n"
      "def k(x, y, z):\n"
      "    i = 0\n"
      "    a = 10\n"
      "    while True:\n"
      "        if ct.bid(0) == i:\n"
      "            a += 3\n"
      "            if True:\n"
      "                break\n"
      "            a = 30\n"
      "        else:\n"
      "            a = 20\n"
      "            i += 1\n"
      "            if True:\n"
      "                continue\n"
      "            a = 40\n"
      "    ct.scatter(y, ct.bid(0), a)\n",
      kSig1d);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Break).size(), 1u);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Continue).size(), 1u);
}

}  // namespace
}  // namespace tile2cu
