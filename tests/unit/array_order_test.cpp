// One array's accesses stay in program order across the CTA's threads (spec h.2;
// src/emit/array_order.cpp): a barrier goes exactly where another thread may touch an element
// that this access reads or writes.
#include <gtest/gtest.h>

#include <string>

#include "tile2cu/tile2cu.hpp"

namespace tile2cu {
namespace {

// The barrier as a one-block-per-CTA kernel writes it, and as one whose CTA runs several small
// blocks does (it waits for the block's lanes alone).
const char* const kBarriers[] = {"__syncthreads();  // ", "sync_block<kThreads, kBlocksPerCta>();  // "};

std::string generated(const std::string& params, const std::string& body, const std::string& sig) {
  const std::string src = "import cuda.tile as ct\n\n@ct.kernel\ndef k(" + params + "):\n" + body;
  TranspileOptions o;
  o.signatures = {sig};
  o.header_name = "k.cuh";
  TranspileResult r = transpile("k.py", src, o);
  EXPECT_TRUE(r.ok) << r.diagnostics;
  return r.cu;
}

int barriers(const std::string& cu) {
  int n = 0;
  for (const char* barrier : kBarriers)
    for (size_t at = cu.find(barrier); at != std::string::npos; at = cu.find(barrier, at + 1)) ++n;
  return n;
}

// A barrier for `array` comes right before the code that starts with `next` (source comments
// may stand between them).
bool barrier_before(const std::string& cu, const std::string& array, const std::string& next) {
  for (const char* spelling : kBarriers) {
    const std::string barrier = std::string(spelling) + array + ": other threads' earlier accesses come first";
    for (size_t at = cu.find(barrier); at != std::string::npos; at = cu.find(barrier, at + 1)) {
      size_t text = cu.find_first_not_of(' ', cu.find('\n', at) + 1);
      while (cu.compare(text, 2, "//") == 0) text = cu.find_first_not_of(' ', cu.find('\n', text) + 1);
      if (cu.compare(text, next.size(), next) == 0) return true;
    }
  }
  return false;
}

const char* kSquare = "a=float32[?, ?], b=float32[?, ?], T=32";

TEST(ArrayOrder, StoreThenTransposedLoadWaits) {
  std::string cu = generated("a, b, T: ct.Constant[int]",
                             "    t = ct.load(b, index=(0, 0), shape=(T, T))\n"
                             "    ct.store(a, index=(0, 0), tile=t)\n"
                             "    u = ct.load(a, index=(0, 0), shape=(T, T), order=(1, 0))\n"
                             "    ct.store(b, index=(0, 0), tile=u)\n",
                             kSquare);
  EXPECT_EQ(barriers(cu), 1) << cu;
  EXPECT_TRUE(barrier_before(cu, "a", "const auto u = load<")) << cu;
}

TEST(ArrayOrder, LoadThenStoreOfOtherShapeWaits) {
  // A (T, T) tile read, then the array overwritten in (2T, T) tiles: other threads own the
  // elements the first load read (write after read).
  std::string cu = generated("a, b, T: ct.Constant[int]",
                             "    t = ct.load(a, index=(0, 0), shape=(T, T))\n"
                             "    ct.store(b, index=(0, 0), tile=t)\n"
                             "    ct.store(a, index=(0, 0), tile=ct.full((2 * T, T), 1.0, ct.float32))\n",
                             kSquare);
  EXPECT_EQ(barriers(cu), 1) << cu;
  EXPECT_TRUE(barrier_before(cu, "a", "store(a, {0, 0}, full<")) << cu;
}

TEST(ArrayOrder, SameShapeAndOrderNeedsNoBarrier) {
  // An in-place update, and tiles at other indices: each element always has the same owner.
  std::string cu = generated("a, b, T: ct.Constant[int]",
                             "    i = ct.bid(0)\n"
                             "    t = ct.load(a, index=(i, 0), shape=(T, T))\n"
                             "    ct.store(a, index=(i, 0), tile=t * 2)\n"
                             "    u = ct.load(a, index=(i + 1, 0), shape=(T, T))\n"
                             "    ct.store(a, index=(i + 1, 0), tile=u + 1)\n"
                             "    ct.store(b, index=(i, 0), tile=ct.load(b, index=(i, 0), shape=(T, T), order=(1, 0)))\n",
                             kSquare);
  EXPECT_EQ(barriers(cu), 1) << cu;  // only b: read transposed, stored straight
  EXPECT_TRUE(barrier_before(cu, "b", "store(b, ")) << cu;
}

TEST(ArrayOrder, DifferentArraysAndReadsNeedNoBarrier) {
  std::string cu = generated("a, b, T: ct.Constant[int]",
                             "    t = ct.load(a, index=(0, 0), shape=(T, T))\n"
                             "    u = ct.load(a, index=(0, 0), shape=(T, T), order=(1, 0))\n"
                             "    ct.store(b, index=(0, 0), tile=t + u)\n",
                             kSquare);
  EXPECT_EQ(barriers(cu), 0) << cu;
}

TEST(ArrayOrder, LoopBodyMeetsItsNextIteration) {
  // The scatter of one iteration and the load of the next touch elements other threads own.
  std::string cu = generated("a, idx, n: int, T: ct.Constant[int]",
                             "    for k in range(n):\n"
                             "        t = ct.load(a, index=(k,), shape=(T,))\n"
                             "        ct.scatter(a, ct.load(idx, index=(k,), shape=(T,)), t + 1.0)\n",
                             "a=float32[?], idx=int32[?], n=int32, T=128");
  EXPECT_EQ(barriers(cu), 2) << cu;
  EXPECT_TRUE(barrier_before(cu, "a", "const auto t = load<Layout_128>(a, ")) << cu;
  EXPECT_TRUE(barrier_before(cu, "a", "scatter<Layout_128>(a, ")) << cu;
}

TEST(ArrayOrder, CommutingAtomicsNeedNoBarrierOthersDo) {
  std::string adds = generated("h, bins, T: ct.Constant[int]",
                               "    b = ct.load(bins, index=(ct.bid(0),), shape=(T,))\n"
                               "    ct.atomic_add(h, b, 1)\n"
                               "    ct.atomic_add(h, b + 1, 1)\n",
                               "h=int32[?], bins=int32[?], T=128");
  EXPECT_EQ(barriers(adds), 0) << adds;
  std::string swaps = generated("h, bins, T: ct.Constant[int]",
                                "    b = ct.load(bins, index=(ct.bid(0),), shape=(T,))\n"
                                "    ct.atomic_xchg(h, b, 1)\n"
                                "    ct.atomic_xchg(h, b + 1, 2)\n",
                                "h=int32[?], bins=int32[?], T=128");
  EXPECT_EQ(barriers(swaps), 1) << swaps;
}

TEST(ArrayOrder, BlockWideSideEffectIsABarrierAlready) {
  // The scalar atomic runs in once_per_block, which waits for every thread on both sides.
  std::string cu = generated("a, lock, T: ct.Constant[int]",
                             "    ct.store(a, index=(0, 0), tile=ct.full((T, T), 1.0, ct.float32))\n"
                             "    ct.atomic_add(lock, 0, 1)\n"
                             "    u = ct.load(a, index=(0, 0), shape=(T, T), order=(1, 0))\n"
                             "    ct.store(a, index=(1, 0), tile=u)\n",
                             "a=float32[?, ?], lock=int32[?], T=32");
  EXPECT_EQ(barriers(cu), 1) << cu;  // the store after the transposed load, not the load
  EXPECT_TRUE(barrier_before(cu, "a", "store(a, {1, 0}, ")) << cu;
}

TEST(ArrayOrder, BranchesJoinBeforeTheNextAccess) {
  std::string cu = generated("a, b, n: int, T: ct.Constant[int]",
                             "    if n > 0:\n"
                             "        ct.store(a, index=(0, 0), tile=ct.full((T, T), 1.0, ct.float32))\n"
                             "    u = ct.load(a, index=(0, 0), shape=(T, T), order=(1, 0))\n"
                             "    ct.store(b, index=(0, 0), tile=u)\n",
                             "a=float32[?, ?], b=float32[?, ?], n=int32, T=32");
  EXPECT_EQ(barriers(cu), 1) << cu;
  EXPECT_TRUE(barrier_before(cu, "a", "const auto u = load<")) << cu;
}

TEST(ArrayOrder, ItemsOfOneListMayBeOneArray) {
  std::string cu = generated("xs, i: int, j: int, T: ct.Constant[int]",
                             "    ct.store(xs[i], index=(0,), tile=ct.full((T,), 1.0, ct.float32))\n"
                             "    t = ct.load(xs[j], index=(0,), shape=(T,))\n"
                             "    ct.store(xs[i], index=(1,), tile=t)\n",
                             "xs=list[float32[?]], i=int32, j=int32, T=128");
  EXPECT_GE(barriers(cu), 1) << cu;
  EXPECT_TRUE(barrier_before(cu, "xs", "const auto t = load<Layout_128>(xs_item2, ")) << cu;
}

}  // namespace
}  // namespace tile2cu
