// The general mma with its scratch in dynamic shared memory (issue 23, item 1): a batched
// product whose staged operands (128x128 and 128x256 f16, 96 KiB) exceed static shared memory,
// written the way cuTile's BatchMatMul sample writes it (3-D loads reshaped to 2-D, mma in a
// K loop), must build for sm_80 and sm_90a. It did not: mma took only a sized scratch array.
#include <gtest/gtest.h>

#include "nvcc_compile.hpp"
#include "tile2cu/tile2cu.hpp"

namespace tile2cu {
namespace {

const char* kBatchedProduct = R"(import cuda.tile as ct


@ct.kernel
def bmm(A, B, C, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    batch, row, col = ct.bid(0), ct.bid(1), ct.bid(2)
    acc = ct.full((tm, tn), 0.0, dtype=ct.float32)
    for k in range(ct.cdiv(A.shape[2], tk)):
        a = ct.load(A, index=(batch, row, k), shape=(1, tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(batch, k, col), shape=(1, tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ct.reshape(a, (tm, tk)), ct.reshape(b, (tk, tn)), acc=acc)
    ct.store(C, index=(batch, row, col), tile=ct.reshape(ct.astype(acc, C.dtype), (1, tm, tn)))
)";

TEST(MmaDynamicScratch, BuildsForSm80AndSm90a) {
  TranspileOptions options;
  options.signatures = {"A=float16[?, ?, ?], B=float16[?, ?, ?], C=float16[?, ?, ?], tm=128, tn=256, tk=128"};
  options.header_name = "bmm.cuh";
  TranspileResult r = transpile("bmm.py", kBatchedProduct, options);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  ASSERT_NE(r.cu.find("extern __shared__"), std::string::npos) << "scratch is no longer dynamic:\n" << r.cu;
  ASSERT_NE(r.cu.find("mma("), std::string::npos) << "not the general mma:\n" << r.cu;
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "bmm.cuh", "sm_80"), 0) << r.cu;
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "bmm.cuh", "sm_90a"), 0) << r.cu;
}

}  // namespace
}  // namespace tile2cu
