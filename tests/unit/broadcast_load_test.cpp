// Broadcasts of loaded side tiles read straight from memory (src/emit/broadcast_load.cpp), and
// the cases that must keep the shared-memory path.
#include <gtest/gtest.h>

#include <string>

#include "tile2cu/tile2cu.hpp"
#include "text_match.hpp"

namespace tile2cu {
namespace {

std::string generated(const std::string& body, const std::string& sig) {
  const std::string src = "import cuda.tile as ct\n\n@ct.kernel\ndef k(x, b, y, z, TM: ct.Constant[int], TN: ct.Constant[int]):\n" + body;
  TranspileOptions o;
  o.signatures = {sig};
  o.header_name = "k.cuh";
  TranspileResult r = transpile("k.py", src, o);
  EXPECT_TRUE(r.ok) << r.diagnostics;
  return r.cu;
}

const char* kSig = "x=float32[?, ?], b=float32[?], y=float32[?, ?], z=float32[?], TM=32, TN=64";

TEST(BroadcastLoad, SideTilesNeedingSeveralRoundTripsReadMemoryDirectly) {
  // The row takes one shared-memory round trip, the column two (its reshape to (TM, 1) changes
  // the run length): both are read from memory, and nothing moves between threads.
  std::string cu = generated(
      "    t = ct.load(x, index=(ct.bid(0), 0), shape=(TM, TN))\n"
      "    row = ct.load(b, index=(0,), shape=(TN,), padding_mode=ct.PaddingMode.ZERO)\n"
      "    col = ct.load(z, index=(ct.bid(0),), shape=(TM,))\n"
      "    ct.store(y, index=(ct.bid(0), 0), tile=t + row[None, :] + col[:, None])\n", kSig);
  EXPECT_TRUE(contains(cu, "load_broadcast<Layout_32x64, Layout_1x64, Layout_64, PaddingMode::Zero>(b, {0})")) << cu;
  EXPECT_TRUE(contains(cu, "load_broadcast<Layout_32x64, Layout_32x1, Layout_32>(z, {")) << cu;
  EXPECT_FALSE(contains(cu, "__shared__")) << cu;
  EXPECT_FALSE(contains(cu, "const auto row")) << cu;
}

TEST(BroadcastLoad, OneRoundTripKeepsTheRegisterPath) {
  // Two barriers per CTA cost less than reading the row again for every run (measured).
  std::string cu = generated(
      "    t = ct.load(x, index=(ct.bid(0), 0), shape=(TM, TN))\n"
      "    row = ct.load(b, index=(0,), shape=(TN,))\n"
      "    ct.store(y, index=(ct.bid(0), 0), tile=t + row[None, :])\n", kSig);
  EXPECT_FALSE(contains(cu, "load_broadcast")) << cu;
  EXPECT_TRUE(contains(cu, "broadcast_to<Layout_32x64>")) << cu;
}

TEST(BroadcastLoad, AstypeLinksApplyToTheResult) {
  std::string cu = generated(
      "    t = ct.load(x, index=(ct.bid(0), 0), shape=(TM, TN))\n"
      "    col = ct.load(b, index=(ct.bid(0),), shape=(TM,)).astype(ct.float16)\n"
      "    ct.store(y, index=(ct.bid(0), 0), tile=t + col[:, None].astype(ct.float32))\n", kSig);
  EXPECT_TRUE(contains(cu, "astype<float>(astype<__half>(load_broadcast<Layout_32x64, Layout_32x1, Layout_32>(b, {")) << cu;
}

TEST(BroadcastLoad, AStoreInBetweenKeepsTheRegisterPath) {
  // The store may write what the load read: the broadcast must use the values loaded before it.
  std::string cu = generated(
      "    col = ct.load(b, index=(ct.bid(0),), shape=(TM,))\n"
      "    ct.store(z, index=(0,), tile=ct.full((TN,), 1.0, dtype=ct.float32))\n"
      "    t = ct.load(x, index=(ct.bid(0), 0), shape=(TM, TN))\n"
      "    ct.store(y, index=(ct.bid(0), 0), tile=t + col[:, None])\n", kSig);
  EXPECT_FALSE(contains(cu, "load_broadcast")) << cu;
  EXPECT_TRUE(contains(cu, "broadcast_to<Layout_32x64>")) << cu;
}

TEST(BroadcastLoad, ALoadUsedTwiceIsLoadedOnce) {
  std::string cu = generated(
      "    t = ct.load(x, index=(ct.bid(0), 0), shape=(TM, TN))\n"
      "    col = ct.load(b, index=(ct.bid(0),), shape=(TM,))\n"
      "    ct.store(z, index=(ct.bid(0),), tile=col)\n"
      "    ct.store(y, index=(ct.bid(0), 0), tile=t + col[:, None])\n", kSig);
  EXPECT_FALSE(contains(cu, "load_broadcast")) << cu;
}

}  // namespace
}  // namespace tile2cu
