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

// A constant True / False mask (a kernel's Constant[bool]) masks every lane alike: cuTile's
// test_gather_with_scalar_mask; it was refused as no boolean tile.
TEST(ElementMemory, ConstantBoolMask) {
  for (const char* value : {"True", "False"}) {
    TranspileResult r = transpile_one(
        "def k(x, y, mask_val: ct.Constant[bool]):\n"
        "    indices = ct.arange(8, dtype=ct.int32)\n"
        "    tx = ct.gather(x, indices, mask=mask_val, padding_value=-1.0, check_bounds=False)\n"
        "    ct.scatter(y, indices, tx)\n",
        std::string("x=float32[?], y=float32[?], mask_val=") + value);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_TRUE(contains(r.cu, "-1.0f")) << r.cu;
    EXPECT_TRUE(contains(r.cu, std::string(value) == "True" ? "true" : "false")) << r.cu;
  }
}

// num_tiles(x, axis, shape=()) counts single-element tiles whatever x's rank, as a load of
// shape () reads one element (cuTile's test_num_tiles[1-shape0]; was "Expected shape length").
TEST(ElementMemory, NumTilesOfSingleElementTiles) {
  TranspileResult r = transpile_one(
      "def k(x):\n"
      "    n = ct.num_tiles(x, axis=0, shape=())\n"
      "    ct.store(x, 0, tile=n)\n",
      "x=int32[?]");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "cdiv(x.shape[0], 1)")) << r.cu;
}

// A Constant padding value of +-inf or nan (cuTile's test_custom_padding_constant[inf], [-inf]):
// the signature spells it as Python's repr() does and the code as CUDA does.
TEST(ElementMemory, NonFiniteConstantPadding) {
  for (auto [value, cuda] : {std::pair{"inf", "INFINITY"}, std::pair{"-inf", "-INFINITY"}, std::pair{"nan", "NAN"},
                             std::pair{"(1, -inf)", "-INFINITY"}}) {
    const bool tuple = std::string(value).starts_with("(");
    TranspileResult r = transpile_one(
        std::string("def k(x, y, pad_val: ct.Constant):\n"
                    "    ind = ct.arange(8, dtype=ct.int32)\n"
                    "    t = ct.gather(x, ind, padding_value=pad_val") + (tuple ? "[1]" : "") + ")\n"
                    "    ct.scatter(y, ind, t)\n",
        std::string("x=float32[?], y=float32[?], pad_val=") + value);
    ASSERT_TRUE(r.ok) << value << ": " << r.diagnostics;
    EXPECT_TRUE(contains(r.cu, cuda)) << r.cu;
  }
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
