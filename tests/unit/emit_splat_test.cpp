// Tiles that are splats (ct.full) reaching ops other than elementwise ones, and reshapes in
// kernels without shared-memory scratch: found compiling the outputs of tests/limits.
#include <gtest/gtest.h>

#include <string>

#include "tile2cu/tile2cu.hpp"

namespace tile2cu {
namespace {

std::string cu_of(const std::string& source, const std::string& sig) {
  TranspileOptions options;
  options.signatures = {sig};
  TranspileResult r = transpile("k.py", source, options);
  EXPECT_TRUE(r.ok) << r.diagnostics;
  return r.cu;
}

// Arithmetic on splats alone is scalar arithmetic; a store, a reduction or a reshape of its
// result needs it as a tile again.
TEST(EmitSplat, SplatArithmeticIsATileWhereATileIsNeeded) {
  std::string cu = cu_of(R"(import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    z = ct.full((TILE,), 1.0, dtype=ct.float32) * 2.0
    ct.store(b, index=(bid,), tile=z)
    s = ct.sum(ct.full((TILE,), 3.0, dtype=ct.float32) + 1.0)
    ct.store(a, index=(bid,), tile=ct.full((TILE,), 1.0, dtype=ct.float32) + s)
)", "a=float32[?], b=float32[?], TILE=128");
  // sema keeps the scalar (named z) and splats it where the tile is stored: the tile form of z
  EXPECT_NE(cu.find("const auto z = 1.0f * 2.0f;"), std::string::npos) << cu;
  EXPECT_NE(cu.find("const auto z_tile = full<Layout_128>(z);"), std::string::npos) << cu;
  EXPECT_NE(cu.find("reduce_sum<Axes<0>>(full<Layout_128>(3.0f + 1.0f), smem)"), std::string::npos) << cu;
  EXPECT_NE(cu.find("store(a, {bid}, full<Layout_128>(1.0f + s), whole_at_launch);"), std::string::npos) << cu;
}

// Elementwise ops mixing a splat with a tile keep using the scalar directly.
TEST(EmitSplat, SplatOperandOfATileOpStaysScalar) {
  std::string cu = cu_of(R"(import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=x * ct.full((TILE,), 2.0, dtype=ct.float32))
)", "a=float32[?], b=float32[?], TILE=128");
  EXPECT_NE(cu.find("x * 2.0f"), std::string::npos) << cu;
}

// A reshape that keeps every element in its thread needs no scratch; with none declared, it
// is given none.
TEST(EmitSplat, RegisterReshapeWithoutScratch) {
  std::string cu = cu_of(R"(import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(TILE,))
    z = ct.full((2, 2, 2, 64, 64), 1.0, dtype=ct.float32)
    ct.store(b, index=(bid,), tile=x + ct.reshape(z * 2.0, (32768,)))
)", "a=float32[?], b=float32[?], TILE=32768");
  EXPECT_EQ(cu.find("smem"), std::string::npos) << cu;
  EXPECT_NE(cu.find("reshape<Layout_32768>(full<Layout_2x2x2x64x64>(1.0f * 2.0f), nullptr)"),
            std::string::npos) << cu;
}

}  // namespace
}  // namespace tile2cu
