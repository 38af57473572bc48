// Common-subexpression elimination and the pass pipeline's --print-after, on kernels written in
// Python: what is shared, what is left as written, and what is never merged.
#include <gtest/gtest.h>

#include <string>

#include "tile2cu/tile2cu.hpp"

namespace tile2cu {
namespace {

TranspileResult transpile_printing(const std::string& body, const std::string& signature,
                                   std::vector<std::string> print_after) {
  TranspileOptions options;
  options.signatures = {signature};
  options.header_name = "k.cuh";
  options.print_after = std::move(print_after);
  return transpile("k.py", "import cuda.tile as ct\n\n\n@ct.kernel\n" + body, options);
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Two spellings of the same broadcast of a loaded row: one exchange through shared memory.
TEST(CommonSubexpressions, RepeatedTileExchangeIsDoneOnce) {
  auto r = transpile_printing(
      "def k(x, y):\n"
      "    v = ct.load(x, index=(0,), shape=(64,))\n"
      "    a = ct.broadcast_to(v[:, None], (64, 64))\n"
      "    b = ct.broadcast_to(v[:, None], (64, 64))\n"
      "    ct.store(y, index=(0, 0), tile=a + b)\n",
      "x=float32[?], y=float32[?, ?]", {});
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_EQ(count(r.ir, " = broadcast "), 1u) << r.ir;
  EXPECT_EQ(count(r.ir, " = reshape "), 1u) << r.ir;
}

// Arithmetic stays where it is written (nvcc shares registers itself), but exchanges that read
// equal values are one: the two sums of `v * 0.5` are one reduction.
TEST(CommonSubexpressions, ComparesExchangeOperandsByValue) {
  auto r = transpile_printing(
      "def k(x, y, n):\n"
      "    a = (n + 1) * 2\n"
      "    b = (n + 1) * 3\n"
      "    v = ct.load(x, index=(0,), shape=(64,))\n"
      "    s = ct.sum(v * 0.5) + ct.sum(v * 0.5)\n"
      "    ct.store(y, index=(a + b,), tile=v + s)\n",
      "x=float32[?], y=float32[?], n=int32", {"cse"});
  ASSERT_TRUE(r.ok) << r.diagnostics;
  const std::string& after = r.ir_after_passes;
  EXPECT_EQ(count(after, "binary add %0.n"), 2u) << after;  // n + 1, twice
  EXPECT_EQ(count(after, "constant 0.5"), 2u) << after;
  EXPECT_EQ(count(after, "= reduce add"), 1u) << after;
}

// Loads are memory reads, never merged; a duplicate inside a branch may reuse what comes before
// the branch, but what a branch computes is not visible after it.
TEST(CommonSubexpressions, RespectsMemoryAndRegionScopes) {
  auto r = transpile_printing(
      "def k(x, y, c):\n"
      "    v = ct.load(x, index=(0,), shape=(64,))\n"
      "    w = ct.load(x, index=(0,), shape=(64,))\n"
      "    s = ct.sum(v) + ct.sum(w)\n"
      "    if c > 0:\n"
      "        t = ct.sum(v)\n"
      "        u = ct.cumsum(v, 0)\n"
      "        ct.store(y, index=(0,), tile=u + t)\n"
      "    ct.store(y, index=(1,), tile=ct.cumsum(v, 0) + s)\n",
      "x=float32[?], y=float32[?], c=int32", {"cse"});
  ASSERT_TRUE(r.ok) << r.diagnostics;
  const std::string& after = r.ir_after_passes;
  EXPECT_EQ(count(after, " = load "), 2u) << after;
  EXPECT_EQ(count(after, "= reduce add"), 2u) << after;  // sum(v), sum(w): the branch's sum(v) reuses the first
  EXPECT_EQ(count(after, "= scan add"), 2u) << after;    // the branch's cumsum does not dominate the last one
}

TEST(PassPipeline, PrintAfterNamesEachPassAskedFor) {
  const std::string body = "def k(x):\n    ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(16,)))\n";
  auto some = transpile_printing(body, "x=float32[?]", {"cse", "licm"});
  ASSERT_TRUE(some.ok) << some.diagnostics;
  EXPECT_EQ(count(some.ir_after_passes, "// ----- IR of "), 2u) << some.ir_after_passes;
  EXPECT_NE(some.ir_after_passes.find("after cse -----"), std::string::npos);
  EXPECT_NE(some.ir_after_passes.find("after licm -----"), std::string::npos);
  auto all = transpile_printing(body, "x=float32[?]", {"all"});
  EXPECT_EQ(count(all.ir_after_passes, "// ----- IR of "), 5u) << all.ir_after_passes;
  auto none = transpile_printing(body, "x=float32[?]", {});
  EXPECT_TRUE(none.ir_after_passes.empty());
}

}  // namespace
}  // namespace tile2cu
