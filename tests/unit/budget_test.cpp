// Input hygiene (issue 28): the lowering budget a file's specializations share, the cap on
// signatures, element counts that cannot wrap, and integers folded with Python's semantics.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "ir/ir.hpp"
#include "sema/budget.hpp"
#include "sema/signature.hpp"
#include "support/diagnostic.hpp"
#include "tile2cu/tile2cu.hpp"

namespace tile2cu {
namespace {

const char* kKernel =
    "import cuda.tile as ct\n"
    "\n"
    "@ct.kernel\n"
    "def k(a, b, TILE: ct.Constant[int]):\n"
    "    x = ct.load(a, index=(ct.bid(0),), shape=(TILE,))\n"
    "    for i in ct.static_iter(range(300)):\n"
    "        x = x + 1.0\n"
    "    ct.store(b, index=(ct.bid(0),), tile=x)\n";

TranspileResult transpile_with(const std::vector<std::string>& sigs) {
  TranspileOptions o;
  o.signatures = sigs;
  return transpile("k.py", kKernel, o);
}

std::vector<std::string> tile_signatures(int count) {
  std::vector<std::string> sigs;
  for (int i = 0; i < count; ++i)
    sigs.push_back("k_" + std::to_string(i) + " = k(a=float32[?], b=float32[?], TILE=16)");
  return sigs;
}

TEST(Budget, OneSpecializationFitsEasily) {
  TranspileResult r = transpile_with(tile_signatures(1));
  EXPECT_TRUE(r.ok) << r.diagnostics;
}

TEST(Budget, SpecializationsShareTheFilesBudget) {
  // About 900 IR operations each: one fits, 200 together are past the file's budget, and the
  // error points at the loop that spends it.
  TranspileResult r = transpile_with(tile_signatures(200));
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.diagnostics.find("k.py:6:14: error[TileUnsupportedFeatureError]: unrolling this ct.static_iter() "
                               "loop needs more than 100000 IR operations"),
            std::string::npos)
      << r.diagnostics;
}

TEST(Budget, SignaturesPastTheCapAreRefusedOnTheCommandLine) {
  std::vector<std::string> sigs = tile_signatures(kMaxSignatures + 1);
  TranspileResult r = transpile_with(sigs);
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.diagnostics.rfind("--sig #1001:1:1: error[SignatureError]: more than 1000 signatures", 0), 0u)
      << r.diagnostics;
}

TEST(Budget, SignaturesPastTheCapAreRefusedInASidecarFile) {
  std::string text = "# one per line\n";
  for (size_t i = 0; i <= kMaxSignatures; ++i) text += "k_" + std::to_string(i) + " = k(a=float32[?], TILE=16)\n";
  try {
    parse_signature_file(text, "k.sigs");
    FAIL() << "expected a CompileError";
  } catch (const CompileError& e) {
    ASSERT_FALSE(e.frames().empty());
    EXPECT_EQ(e.frames().front().file->path(), "k.sigs");
    EXPECT_EQ(e.frames().front().range.line, static_cast<int>(kMaxSignatures) + 2);
    EXPECT_NE(e.message().find("more than 1000 signatures"), std::string::npos) << e.message();
  }
  text.resize(text.rfind("k_1000"));
  EXPECT_EQ(parse_signature_file(text, "k.sigs").size(), kMaxSignatures);
}

TEST(Budget, ElementCountsSaturateInsteadOfWrapping) {
  const int64_t big = int64_t{1} << 32;
  EXPECT_EQ(ir::shape_elements({big, big}), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(ir::shape_elements({big, big, 0}), 0);
  EXPECT_EQ(ir::shape_elements({256, 256}), 65536);
  EXPECT_EQ(ir::shape_elements({}), 1);
}

TEST(Budget, PowersOfOneAndMinusOneFoldAtOnce) {
  // 1 ** 10**25 once multiplied 10**25 times.
  TranspileOptions o;
  o.signatures = {"a=float32[?], b=float32[?], TILE=16"};
  TranspileResult r = transpile("k.py",
                                "import cuda.tile as ct\n"
                                "\n"
                                "@ct.kernel\n"
                                "def k(a, b, TILE: ct.Constant[int]):\n"
                                "    n = 1 ** 10**25 + (-1) ** (10**25 + 1) + 0 ** 10**25 + 2 ** 100 // 2 ** 99\n"
                                "    ct.static_assert(n == 2)\n"
                                "    x = ct.load(a, index=(ct.bid(0),), shape=(TILE,))\n"
                                "    ct.store(b, index=(ct.bid(0),), tile=x + n)\n",
                                o);
  EXPECT_TRUE(r.ok) << r.diagnostics;
}

}  // namespace
}  // namespace tile2cu
