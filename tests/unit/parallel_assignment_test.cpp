// A loop's carried variables are assigned as Python's `a, b = b, a` does: every new value is
// read before any variable is written (cuTile's test_control_flow.py::TestForLoop::
// test_tuple_carried_variable, `t = t[1], t[0] + t[1]`, computed 32 instead of 13).
#include <gtest/gtest.h>

#include <string>

#include "text_match.hpp"
#include "tile2cu/tile2cu.hpp"

namespace tile2cu {
namespace {

std::string kernel_cu(const std::string& body) {
  TranspileOptions o;
  o.signatures = {"x=float32[?]"};
  o.header_name = "k.cuh";
  TranspileResult r = transpile("k.py",
                                "import cuda.tile as ct\n\n\n@ct.kernel\ndef k(x):\n"
                                "    a = ct.load(x, index=(0,), shape=(1,))\n"
                                "    b = ct.load(x, index=(1,), shape=(1,))\n" + body,
                                o);
  EXPECT_TRUE(r.ok) << r.diagnostics;
  return r.cu;
}

// The sum is an expression written where the yield assigns it: it must read the old t_0.
TEST(ParallelAssignment, InlineValueReadsOldVariable) {
  std::string cu = kernel_cu(
      "    t = a, b\n"
      "    for i in range(5):\n"
      "        t = t[1], t[0] + t[1]\n"
      "    ct.store(x, index=(2,), tile=t[1])\n");
  EXPECT_TRUE(contains(cu, "const auto t_1_next = t_0 + t_1;\n"
                           "      t_0 = t_1;\n"
                           "      t_1 = t_1_next;\n")) << cu;
}

// A named value yielded last was written straight into its variable before the yield, which
// then read that variable's new value for the other one.
TEST(ParallelAssignment, NamedValueNotWrittenBeforeOldOneIsRead) {
  std::string cu = kernel_cu(
      "    t = a, b\n"
      "    for i in range(5):\n"
      "        s = t[0] + t[1]\n"
      "        t = t[1], s\n"
      "    ct.store(x, index=(2,), tile=t[1])\n");
  EXPECT_TRUE(contains(cu, "const auto s = t_0 + t_1;\n"
                           "      t_0 = t_1;\n"
                           "      t_1 = s;\n")) << cu;
}

TEST(ParallelAssignment, SwapInWhileLoop) {
  std::string cu = kernel_cu(
      "    i = 0\n"
      "    while i < 3:\n"
      "        a, b = b, a\n"
      "        i += 1\n"
      "    ct.store(x, index=(2,), tile=a - b)\n");
  EXPECT_TRUE(contains(cu, "const auto b_next = a;\n"
                           "      a = b;\n"
                           "      b = b_next;\n")) << cu;
}

// Without a hazard the values are assigned directly, as before.
TEST(ParallelAssignment, NoTemporaryWithoutHazard) {
  std::string cu = kernel_cu(
      "    for i in range(5):\n"
      "        a = a + 1\n"
      "        b = b * 2\n"
      "    ct.store(x, index=(2,), tile=a - b)\n");
  EXPECT_FALSE(contains(cu, "_next")) << cu;
}

}  // namespace
}  // namespace tile2cu
