// ct.Slice with ct.load_advanced_indexing / store_advanced_indexing (spec c.2.4): kernels and
// error cases of cuTile's test_load_store_advanced_indexing.py.
#include <gtest/gtest.h>

#include <string>

#include "nvcc_compile.hpp"
#include "support/diagnostic.hpp"
#include "tile2cu/tile2cu.hpp"

namespace tile2cu {
namespace {

TranspileResult transpile_kernel(const std::string& body, const std::string& params, const std::string& sig) {
  TranspileOptions options;
  options.signatures = {sig};
  options.header_name = "k.cuh";
  return transpile("k.py", "import cuda.tile as ct\n@ct.kernel\ndef k(" + params + "):\n" + body, options);
}

// The error of a kernel that should not compile, as "Kind: message" ("accepted" when it does).
std::string failure(const std::string& body, const std::string& params, const std::string& sig) {
  TranspileResult r = transpile_kernel(body, params, sig);
  return r.ok ? "accepted" : r.diagnostics;
}

// load_store_advanced_rows, gather_even_rows, scatter_even_rows and test_load_zero_padding: rows by
// an index tile, columns from a run-time or constant start; gathers and scatters of the result
// shape, built with nvcc.
TEST(AdvancedIndexing, SparseRowsAndSlicedColumnsAreGathersAndScatters) {
  TranspileResult r = transpile_kernel(
      "    indices = ct.arange(ROWS, dtype=ct.int32) * 2\n"
      "    tile = ct.load_advanced_indexing(x, (indices, ct.Slice(col_start, COLS)), padding_mode=ct.PaddingMode.ZERO)\n"
      "    ct.store_advanced_indexing(y, (indices, ct.Slice(2, COLS)), tile)\n"
      "    t2 = ct.load_advanced_indexing(x, (ct.Slice(col_start, COLS), indices))\n"
      "    ct.store(y, (0, 0), t2)\n",
      "x, y, ROWS: ct.Constant[int], COLS: ct.Constant[int], col_start",
      "x=int32[?, ?], y=int32[?, ?], ROWS=8, COLS=4, col_start=int32");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_NE(r.cu.find("gather"), std::string::npos) << r.cu;
  EXPECT_NE(r.cu.find("scatter"), std::string::npos) << r.cu;
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_90a"), 0) << r.cu;
}

// A float array pads out-of-bounds lanes with the mode's value.
TEST(AdvancedIndexing, PaddingModeSetsTheGathersPadding) {
  TranspileResult r = transpile_kernel(
      "    indices = ct.arange(8, dtype=ct.int32) + 6\n"
      "    tile = ct.load_advanced_indexing(x, (indices, ct.Slice(0, 4)), padding_mode=ct.PaddingMode.NEG_INF)\n"
      "    ct.store(y, (0, 0), tile)\n",
      "x, y", "x=float32[?, ?], y=float32[?, ?]");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_NE(r.cu.find(", true, -INFINITY);"), std::string::npos) << r.cu;
}

// cuTile's error texts, as its tests match them.
TEST(AdvancedIndexing, ErrorsAsCuTile) {
  const std::string sig = "x=int32[?, ?], y=int32[?, ?]";
  EXPECT_NE(failure("    ct.load_advanced_indexing(x, (ct.zeros((4, 4), dtype=ct.int32), ct.Slice(0, 4)))\n", "x, y", sig)
                .find("1D"),
            std::string::npos);
  EXPECT_NE(failure("    ct.load_advanced_indexing(x, (ct.Slice(0, 4), ct.Slice(1, 4)))\n", "x, y", sig)
                .find("exactly one index must be a 1D integer Tile"),
            std::string::npos);
  EXPECT_NE(failure("    r = ct.arange(4, dtype=ct.int32)\n"
                    "    ct.store_advanced_indexing(y, (r, r), ct.full((4,), 9, dtype=ct.int32))\n",
                    "x, y", sig)
                .find("exactly one index must be a 1D integer Tile"),
            std::string::npos);
  EXPECT_NE(failure("    ct.load_advanced_indexing(x, (ct.arange(4, dtype=ct.int32), ct.Slice(0, 4), ct.Slice(0, 4)))\n",
                    "x, y", sig)
                .find("does not match array rank"),
            std::string::npos);
  const std::string odd = failure("    ct.load_advanced_indexing(x, (ct.arange(4, dtype=ct.int32), ct.Slice(0, 3)))\n", "x, y", sig);
  EXPECT_NE(odd.find("TileTypeError"), std::string::npos) << odd;
  EXPECT_NE(odd.find("power of two"), std::string::npos) << odd;
}

}  // namespace
}  // namespace tile2cu
