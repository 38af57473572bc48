// fp8 ct.mma on sm_90a runs on wgmma (issue 24): Hopper's fp8 wgmma sums with less precision
// than fp32, and cuBLAS's and cuTile's fp8 GEMMs run on it, so tile2cu's results agree with theirs
// only when it does too. The shapes are cuTile's samples/BatchMatMul.py (A [B, M, K], B [B, K, N],
// tiles 128 x 256 x 128 from its launcher, f32 accumulator). No GPU here: these check the PTX
// each architecture's build gets (tests/gpu/fp8_gemm_check.py checks the values on a GPU).
#include <gtest/gtest.h>

#include "nvcc_compile.hpp"
#include "text_match.hpp"
#include "transpile_one.hpp"
#include "tile2cu/tile2cu.hpp"

namespace tile2cu {
namespace {

const char* kBatchMatmul = R"(def k(A, B, C, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    pb = ct.bid(0)
    pm = ct.bid(1)
    pn = ct.bid(2)
    acc = ct.full((tm, tn), 0.0, dtype=ct.float32)
    for kk in range(ct.cdiv(A.shape[2], tk)):
        a = ct.reshape(ct.load(A, index=(pb, pm, kk), shape=(1, tm, tk), padding_mode=ct.PaddingMode.ZERO), (tm, tk))
        b = ct.reshape(ct.load(B, index=(pb, kk, pn), shape=(1, tk, tn), padding_mode=ct.PaddingMode.ZERO), (tk, tn))
        acc = ct.mma(a, b, acc=acc)
    ct.store(C, index=(pb, pm, pn), tile=ct.reshape(ct.astype(acc, C.dtype), (1, tm, tn)))
)";

std::string batch_matmul_sig(const std::string& fp8, int tm, int tn, int tk) {
  return "A=" + fp8 + "[?, ?, ?], B=" + fp8 + "[?, ?, ?], C=float32[?, ?, ?], tm=" + std::to_string(tm) +
         ", tn=" + std::to_string(tn) + ", tk=" + std::to_string(tk);
}

// One k32 step per 32 of tk on 64 x 64 output tiles: the unrolled loop holds at least tk / 32
// wgmmas (nvcc may peel the loop over tiles and repeat them).
TEST(Fp8Wgmma, BatchMatmulE4m3OnSm90aRunsOnWgmma) {
  TranspileResult r = transpile_one(kBatchMatmul, batch_matmul_sig("float8_e4m3fn", 128, 256, 128));
  ASSERT_TRUE(r.ok) << r.diagnostics;
  ASSERT_TRUE(contains(r.cu, "acc = mma(a, b, acc, smem);")) << r.cu;  // the general mma, each k step
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  const std::string ptx = testing::nvcc_ptx(r.cu, r.cuh, "k.cuh", "compute_90a");
  ASSERT_FALSE(ptx.empty());
  EXPECT_GE(count(ptx, "wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3"), 4u);
  EXPECT_TRUE(contains(ptx, "fence.proxy.async.shared::cta"));
}

TEST(Fp8Wgmma, E5m2TooAndTheSm89BuildKeepsMmaSync) {
  TranspileResult r = transpile_one(kBatchMatmul, batch_matmul_sig("float8_e5m2", 64, 64, 64));
  ASSERT_TRUE(r.ok) << r.diagnostics;
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  const std::string hopper = testing::nvcc_ptx(r.cu, r.cuh, "k.cuh", "compute_90a");
  EXPECT_GE(count(hopper, "wgmma.mma_async.sync.aligned.m64n64k32.f32.e5m2.e5m2"), 2u);
  const std::string ada = testing::nvcc_ptx(r.cu, r.cuh, "k.cuh", "compute_89");
  ASSERT_FALSE(ada.empty());
  EXPECT_FALSE(contains(ada, "wgmma"));
  EXPECT_TRUE(contains(ada, "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32"));
}

// A tile wgmma cannot cover in 64 x 64 pieces (N = 32) keeps mma.sync on sm_90a.
TEST(Fp8Wgmma, ATileNotOf64x64PiecesKeepsMmaSync) {
  TranspileResult r = transpile_one(kBatchMatmul, batch_matmul_sig("float8_e4m3fn", 64, 32, 64));
  ASSERT_TRUE(r.ok) << r.diagnostics;
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  const std::string ptx = testing::nvcc_ptx(r.cu, r.cuh, "k.cuh", "compute_90a");
  ASSERT_FALSE(ptx.empty());
  EXPECT_FALSE(contains(ptx, "wgmma"));
  EXPECT_TRUE(contains(ptx, "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32"));
}

// The generated file builds to machine code for sm_90a (ptxas checks the wgmma operands and
// descriptors' types) and for sm_80, where fp8 has no tensor-core form.
TEST(Fp8Wgmma, BatchMatmulBuildsForSm90aAndSm80) {
  TranspileResult r = transpile_one(kBatchMatmul, batch_matmul_sig("float8_e4m3fn", 128, 256, 128));
  ASSERT_TRUE(r.ok) << r.diagnostics;
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_90a"), 0);
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_80"), 0);
}

}  // namespace
}  // namespace tile2cu
