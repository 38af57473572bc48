// Several blocks per CTA for small tiles (issue 30): which kernels take that path, and what the
// generated kernel and launcher then say. The GPU side (ragged grids, ct.bid and ct.num_blocks,
// atomics, early returns, speed) is tests/python/test_small_tiles_gpu.py.
#include <gtest/gtest.h>

#include "nvcc_compile.hpp"
#include "text_match.hpp"
#include "transpile_one.hpp"
#include "tile2cu/tile2cu.hpp"

namespace tile2cu {
namespace {

// cuTile's first sample, unchanged: 16-element tiles.
const char* kVectorAdd16 = R"(def k(a, b, c):
    block_id = ct.bid(0)
    a_tile = ct.load(a, index=(block_id,), shape=(16,))
    b_tile = ct.load(b, index=(block_id,), shape=(16,))
    ct.store(c, index=(block_id,), tile=a_tile + b_tile)
)";

TEST(SmallTiles, VectorAddOf16ElementTilesRunsManyBlocksPerCta) {
  TranspileResult r = transpile_one(kVectorAdd16, "a=float32[?], b=float32[?], c=float32[?]");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  // One thread per 16-byte run (4 floats), 64 blocks in a CTA of 256 threads.
  EXPECT_TRUE(contains(r.cu, "constexpr int kThreads = 4;\nconstexpr int kBlocksPerCta = 64;\n")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "using Layout_16 = BlockedLayout<Shape<16>, kThreads, 4, kBlocksPerCta>;")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "__launch_bounds__(kCtaThreads)")) << r.cu;
  // ct.bid(0) is the block along x; a place past the grid's end returns before anything.
  EXPECT_TRUE(contains(r.cu, "    int32_t blocks_x) {\n"
                             "  // This thread's block along x: its CTA's first block, plus its own place in the CTA.\n"
                             "  const int32_t block_x = int32_t(blockIdx.x) * kBlocksPerCta + int32_t(threadIdx.x) / kThreads;\n"
                             "  if (block_x >= blocks_x) return;"))
      << r.cu;
  EXPECT_TRUE(contains(r.cu, "const auto block_id = block_x;")) << r.cu;
  // The launcher turns the grid's blocks into CTAs and passes their count.
  EXPECT_TRUE(contains(r.cu, "const dim3 ctas((grid.x + k_f32_f32_f32::kBlocksPerCta - 1) / k_f32_f32_f32::kBlocksPerCta, "
                             "grid.y, grid.z);"))
      << r.cu;
  EXPECT_TRUE(contains(r.cu, "kernel<<<ctas, k_f32_f32_f32::kCtaThreads, 0, stream>>>(")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "    static_cast<int32_t>(grid.x));")) << r.cu;
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_80"), 0) << r.cu;
}

TEST(SmallTiles, HalfTilesGetFewerThreadsPerBlock) {
  TranspileResult r = transpile_one(kVectorAdd16, "a=float16[?], b=float16[?], c=float16[?]");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "constexpr int kThreads = 2;\nconstexpr int kBlocksPerCta = 128;\n")) << r.cu;
}

// ct.num_blocks(0) is the grid's count, not the CTAs'; other axes stay the CTA's; a per-block
// early return and tile atomics need no other block.
TEST(SmallTiles, GridQueriesEarlyReturnAndTileAtomicsBuild) {
  TranspileResult r = transpile_one(R"(def k(x, counts, out):
    bx = ct.bid(0)
    if bx % 3 == 2:
        return
    t = ct.load(x, index=(bx, ct.bid(1)), shape=(1, 8))
    ct.atomic_add(counts, ct.arange(8, dtype=ct.int32), 1)
    ct.store(out, index=(bx, ct.bid(1)), tile=t + ct.num_blocks(0) * 100 + ct.num_blocks(1))
)",
                                    "x=int32[?, ?], counts=int32[?], out=int32[?, ?]");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "constexpr int kBlocksPerCta = ")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "blocks_x * 100")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "int32_t(gridDim.y)")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "int32_t(blockIdx.y)")) << r.cu;
  EXPECT_FALSE(contains(r.cu, "gridDim.x")) << r.cu;
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_90a"), 0) << r.cu;
}

// Reading back what other threads of the block wrote (the second half of its 32 elements, in
// 16-element tiles dealt out differently) waits for the block's lanes only.
TEST(SmallTiles, ArrayOrderBarrierWaitsForTheBlockAlone) {
  TranspileResult r = transpile_one(R"(def k(x, y, z):
    bx = ct.bid(0)
    ct.store(y, index=(bx,), tile=ct.load(x, index=(bx,), shape=(32,)) * 2)
    t = ct.load(y, index=(2 * bx + 1,), shape=(16,))
    ct.store(z, index=(bx,), tile=t + 1)
)",
                                    "x=float32[?], y=float32[?], z=float32[?]");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "constexpr int kThreads = 8;\nconstexpr int kBlocksPerCta = 32;\n")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "  sync_block<kThreads, kBlocksPerCta>();  // y: other threads' earlier accesses come first"))
      << r.cu;
  EXPECT_FALSE(contains(r.cu, "__syncthreads")) << r.cu;
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_80"), 0) << r.cu;
}

// Kernels with an mma, or whose block does something once, keep one block per CTA; so do tiles
// of more than a warp's worth of runs.
TEST(SmallTiles, KernelsThatNeedTheWholeCtaKeepOneBlockPerCta) {
  const std::string sig = "x=float32[?, ?], y=float32[?, ?]";
  const char* cases[] = {
      // an mma (its fragments span warps)
      "def k(x, y):\n    t = ct.load(x, index=(ct.bid(0), 0), shape=(16, 16)).astype(ct.float16)\n"
      "    ct.store(y, index=(ct.bid(0), 0), tile=ct.mma(t, t, ct.zeros((16, 16), dtype=ct.float32)))\n",
      // a one-element store: the block's side effect, done once
      "def k(x, y):\n    t = ct.load(x, index=(ct.bid(0), 0), shape=(1, 16))\n"
      "    ct.store(y, index=(ct.bid(0), 0), tile=t)\n    ct.store(y, index=(0, 0), tile=1.0)\n",
      // a print
      "def k(x, y):\n    t = ct.load(x, index=(ct.bid(0), 0), shape=(1, 16))\n    ct.printf(\"%f\", t)\n"
      "    ct.store(y, index=(ct.bid(0), 0), tile=t)\n",
      // 256 floats: 64 runs, more than a warp
      "def k(x, y):\n    ct.store(y, index=(ct.bid(0), 0), tile=ct.load(x, index=(ct.bid(0), 0), shape=(1, 256)))\n",
  };
  for (const char* body : cases) {
    TranspileResult r = transpile_one(body, sig);
    ASSERT_TRUE(r.ok) << body << r.diagnostics;
    EXPECT_TRUE(contains(r.cu, "// One CTA runs one block.")) << body << r.cu;
    EXPECT_FALSE(contains(r.cu, "kBlocksPerCta")) << body;
  }
}

// Reductions, scans, broadcasts and permutes move elements between the block's threads alone:
// registers and shuffles over its lanes, or its own part of the CTA's scratch, and barriers on its
// lanes (BlockedLayout::sync). 64 elements, the widest stored as float: 16 runs of 4, so 16
// threads a block and 16 blocks a CTA.
TEST(SmallTiles, RowReductionsWaitForTheBlockAlone) {
  TranspileResult r = transpile_one(R"(def k(x, y, sums):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, 64)).astype(ct.float32)
    e = ct.exp(t - ct.max(t, axis=1, keepdims=True))
    ct.store(y, index=(row, 0), tile=(e / ct.sum(e, axis=1, keepdims=True)).astype(y.dtype))
    ct.store(sums, index=(row, 0), tile=ct.cumsum(ct.permute(ct.reshape(t, (8, 8)), (1, 0)), axis=0))
)",
                                    "x=bfloat16[?, ?], y=bfloat16[?, ?], sums=float32[?, ?]");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "constexpr int kThreads = 16;\nconstexpr int kBlocksPerCta = 16;\n")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "  __shared__ alignas(16) unsigned char smem_of_blocks[kBlocksPerCta][")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "  unsigned char* const smem = smem_of_blocks[threadIdx.x / kThreads];\n")) << r.cu;
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_80"), 0) << r.cu;
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_90a"), 0) << r.cu;
}

}  // namespace
}  // namespace tile2cu
