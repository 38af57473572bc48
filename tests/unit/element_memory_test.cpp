// ct.gather / scatter / atomic_*: the IR sema builds, and the CUDA the emitter prints, in
// particular that block-uniform side effects run once per block with their operands computed
// by every thread first.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tile2cu/tile2cu.hpp"
#include "text_match.hpp"
#include "transpile_one.hpp"

namespace tile2cu {
namespace {

TEST(ElementMemory, GatherWithBroadcastIndicesMaskAndPadding) {
  TranspileResult r = transpile_one(
      "def k(x, y, TM: ct.Constant[int], TN: ct.Constant[int]):\n"
      "    i = ct.arange(TM, dtype=ct.int32)\n"
      "    j = ct.arange(TN, dtype=ct.uint32)\n"
      "    t = ct.gather(x, (i[:, None], j[None, :]), mask=i[:, None] > 1, padding_value=-1.0)\n"
      "    ct.store(y, index=(0, 0), tile=t)\n",
      "x=float32[?, ?], y=float32[?, ?], TM=8, TN=32");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  // Both index tiles are stretched to (8, 32); the uint32 one keeps its dtype.
  EXPECT_TRUE(contains(r.ir, "gather x")) << r.ir;
  EXPECT_TRUE(contains(r.ir, ": tile<f32, 8x32>")) << r.ir;
  EXPECT_TRUE(contains(r.cu, "gather<Layout_8x32>(x, indices(")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "-1.0f)")) << r.cu;
}

TEST(ElementMemory, DefaultsAreNotSpelledOut) {
  TranspileResult r = transpile_one(
      "def k(x, y, TILE: ct.Constant[int]):\n"
      "    offs = ct.arange(TILE, dtype=ct.int32)\n"
      "    ct.scatter(y, offs, ct.gather(x, offs, check_bounds=False))\n",
      "x=float32[?], y=float32[?], TILE=128");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "scatter<Layout_128>(y, indices(offs), gather<Layout_128, Bounds::Unchecked>(x, indices(offs)));"))
      << r.cu;
}

TEST(ElementMemory, TileAtomicsRunInEveryThread) {
  TranspileResult r = transpile_one(
      "def k(x, hist, TILE: ct.Constant[int]):\n"
      "    bins = ct.gather(x, ct.arange(TILE, dtype=ct.int32))\n"
      "    old = ct.atomic_max(hist, bins, 7, memory_scope=ct.MemoryScope.BLOCK)\n"
      "    ct.atomic_add(hist, bins, old)\n",
      "x=int32[?], hist=int32[?], TILE=256");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "const auto old = atomic_max<Layout_256, MemoryOrder::AcqRel, MemoryScope::Block>(hist, indices(bins), 7);"))
      << r.cu;
  EXPECT_TRUE(contains(r.cu, "  atomic_add<Layout_256>(hist, indices(bins), old);")) << r.cu;
  EXPECT_FALSE(contains(r.cu, "once_per_block")) << r.cu;
}

TEST(ElementMemory, ScalarSideEffectsRunOncePerBlock) {
  TranspileResult r = transpile_one(
      "def k(locks, count, out, TILE: ct.Constant[int]):\n"
      "    while ct.atomic_cas(locks, 0, 0, 1, memory_order=ct.MemoryOrder.ACQUIRE) == 1:\n"
      "        pass\n"
      "    n = ct.gather(count, 0)\n"
      "    ct.scatter(count, 0, n + 1)\n"
      "    ct.store(out, index=(0,), tile=ct.sum(ct.full((TILE,), n, dtype=ct.int32)))\n"
      "    ct.atomic_xchg(locks, 0, 0, memory_order=ct.MemoryOrder.RELEASE)\n",
      "locks=int32[?], count=int32[?], out=int32[?], TILE=64");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  // The lock: taken in thread 0, the result handed to every thread for the loop condition.
  EXPECT_TRUE(contains(r.cu, "once_per_block([&] { return atomic_cas<MemoryOrder::Acquire>(locks, indices(0), 0, 1); })"))
      << r.cu;
  // count is written by the kernel: its one-element read happens once too.
  EXPECT_TRUE(contains(r.cu, "once_per_block([&] { return gather(count, indices(0)); })")) << r.cu;
  // n + 1 is computed by every thread before the once-per-block scatter.
  EXPECT_TRUE(contains(r.cu, "once_per_block([&] { scatter(count, indices(0), ")) << r.cu;
  // The reduction (which needs every thread) happens outside the once-per-block store.
  EXPECT_TRUE(contains(r.cu, "= reduce_sum<Axes<0>>(")) << r.cu;
  // out is touched by nothing else: thread 0 stores it without barriers.
  EXPECT_TRUE(contains(r.cu, "in_one_thread([&] { store_scalar(out, {0}, ")) << r.cu;
  EXPECT_FALSE(contains(r.cu, "store_scalar(out, {0}, reduce_sum")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "once_per_block([&] { atomic_xchg<MemoryOrder::Release>(locks, indices(0), 0); });")) << r.cu;
}

TEST(ElementMemory, ReadOnlyScalarGatherNeedsNoBarrier) {
  TranspileResult r = transpile_one(
      "def k(x, y, TILE: ct.Constant[int]):\n"
      "    s = ct.gather(x, ct.bid(0))\n"
      "    ct.store(y, index=(ct.bid(0),), tile=ct.full((TILE,), s, dtype=ct.float32))\n",
      "x=float32[?], y=float32[?], TILE=64");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "gather(x, indices(")) << r.cu;
  EXPECT_FALSE(contains(r.cu, "once_per_block")) << r.cu;
}

TEST(ElementMemory, AtomicsMarkTheArrayWritten) {
  TranspileResult r = transpile_one(
      "def k(x, TILE: ct.Constant[int]):\n"
      "    ct.atomic_add(x, ct.arange(TILE, dtype=ct.int32), 1.0)\n",
      "x=float32[?], TILE=64");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "tile2cu::ArrayView<float, 1> x")) << r.cu;
  EXPECT_TRUE(contains(r.ir, "atomic add x acq_rel device")) << r.ir;
}

}  // namespace
}  // namespace tile2cu
