// Kernels compiled twice, the launcher choosing the copy without checked paths when it proves
// every block's tiles whole (src/emit/launch_whole_tiles.cpp): which accesses it may prove, and
// the generated kernel and launcher, checked in the text and by nvcc.
#include <gtest/gtest.h>

#include <string>

#include "nvcc_compile.hpp"
#include "text_match.hpp"
#include "tile2cu/tile2cu.hpp"

namespace tile2cu {
namespace {

const char* kKernels = R"(import cuda.tile as ct

@ct.kernel
def rows(x, w, y, TN: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TN)) * ct.load(w, index=(0,), shape=(TN,))[None, :]
    ct.store(y, index=(row, 0), tile=t)

@ct.kernel
def scalar_index(x, y, k: int, TN: ct.Constant[int]):
    row = ct.bid(1)
    ct.store(y, index=(row, 0), tile=ct.load(x, index=(row, k), shape=(1, TN)))

@ct.kernel
def computed_index(x, y, TN: ct.Constant[int]):
    row = ct.bid(0) * 2
    ct.store(y, index=(row, 0), tile=ct.load(x, index=(row, 0), shape=(1, TN)))

@ct.kernel(occupancy=4)
def block_known(x, w, b, y, TN: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TN)).astype(ct.float32)
    u = (ct.load(w, index=(0,), shape=(TN,)) + ct.load(b, index=(0,), shape=(TN,))).astype(ct.float32)[None, :]
    ct.store(y, index=(row, 0), tile=(t * u).astype(y.dtype))
)";

TEST(LaunchWholeTiles, KernelsTheLauncherCanProveWhole) {
  TranspileOptions options;
  options.header_name = "k.cuh";
  options.signatures = {"rows(x=float32[?, ?], w=float32[?], y=float32[?, ?], TN=256)",
                        "scalar_index(x=float32[?, ?], y=float32[?, ?], k=int32, TN=256)",
                        "computed_index(x=float32[?, ?], y=float32[?, ?], TN=256)",
                        "block_known(x=bfloat16[?, ?], w=bfloat16[?], b=bfloat16[?], y=bfloat16[?, ?], TN=8192)"};
  TranspileResult r = transpile("k.py", kKernels, options);
  ASSERT_TRUE(r.ok) << r.diagnostics;

  // Every access provable: x and y at (bid, 0), w at (0,), which the split also tests per block.
  const std::string rows = spec_text(r.cu, "rows_f32_f32_f32_256");
  ASSERT_FALSE(rows.empty()) << r.cu;
  EXPECT_TRUE(contains(rows, "template <bool kTilesWhole>\n__global__")) << rows;
  EXPECT_TRUE(contains(rows, "const bool fixed_tiles_whole = kTilesWhole || whole_tile<Layout_256>(w, {0});")) << rows;
  EXPECT_TRUE(contains(rows, "load<Layout_1x256>(x, {row, 0}, whole_at_launch)")) << rows;
  EXPECT_TRUE(contains(rows, "load<Layout_256>(w, {0}, whole)")) << rows;
  EXPECT_TRUE(contains(rows, "tile2cu::whole_in_every_block<rows_f32_f32_f32_256::Layout_1x256>("
                             "x_arg, {tile2cu::LaunchIndex::bid(0), 0}, grid) &&")) << rows;
  EXPECT_TRUE(contains(rows, "tile2cu::whole_in_every_block<rows_f32_f32_f32_256::Layout_256>(w_arg, {0}, grid)"))
      << rows;
  EXPECT_TRUE(contains(rows, "const bool use_whole_copy = tiles_whole && whole_copy_fits;\n"
                             "  const auto kernel = use_whole_copy ? rows_f32_f32_f32_256::rows<true>")) << rows;

  // x's column index is a kernel argument: only y is proved, and the block index is bid(1).
  const std::string scalar = spec_text(r.cu, "scalar_index_f32_f32_i32_256");
  EXPECT_TRUE(contains(scalar, "load<Layout_1x256>(x, {row, k})")) << scalar;
  EXPECT_TRUE(contains(scalar, "store(y, {row, 0}, load<Layout_1x256>(x, {row, k}), whole_at_launch);")) << scalar;
  EXPECT_TRUE(contains(scalar, "whole_in_every_block<scalar_index_f32_f32_i32_256::Layout_1x256>(y_arg, "
                               "{tile2cu::LaunchIndex::bid(1), 0}, grid);")) << scalar;
  EXPECT_FALSE(contains(scalar, "(x_arg")) << scalar;

  // Nothing the launcher can evaluate, or a kernel already fitted to its own cap: one copy.
  for (const char* spec : {"computed_index_f32_f32_256", "block_known_bf16_bf16_bf16_bf16_8192"}) {
    const std::string text = spec_text(r.cu, spec);
    ASSERT_FALSE(text.empty()) << spec;
    EXPECT_FALSE(contains(text, "kTilesWhole")) << text;
    EXPECT_FALSE(contains(text, "whole_in_every_block")) << text;
  }
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh"), 0) << r.cu;
}

}  // namespace
}  // namespace tile2cu
