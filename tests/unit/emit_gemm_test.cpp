// How recognised GEMM k-loops read in the generated code (src/emit/emit_gemm.cpp,
// src/emit/tensor_maps.cpp): which loops take TMA tensor maps as __grid_constant__ kernel
// parameters, and the launcher that encodes them.
#include <gtest/gtest.h>

#include <string>

#include "tile2cu/tile2cu.hpp"
#include "text_match.hpp"

namespace tile2cu {
namespace {

// A tiled GEMM over rank-R operands (R = 2 or 3: a leading batch dim), tile BM x BN x BK.
const char* kGemm2d =
    "import cuda.tile as ct\n"
    "@ct.kernel\n"
    "def gemm(A, B, C, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):\n"
    "    row, col = ct.bid(0), ct.bid(1)\n"
    "    acc = ct.zeros((BM, BN), dtype=ct.float32)\n"
    "    for k in range(ct.cdiv(A.shape[1], BK)):\n"
    "        a = ct.load(A, index=(row, k), shape=(BM, BK), padding_mode=ct.PaddingMode.ZERO)\n"
    "        b = ct.load(B, index=(k, col), shape=(BK, BN), padding_mode=ct.PaddingMode.ZERO)\n"
    "        acc = ct.mma(a, b, acc)\n"
    "    ct.store(C, index=(row, col), tile=acc.astype(C.dtype))\n";

const char* kGemm3d =
    "import cuda.tile as ct\n"
    "@ct.kernel\n"
    "def gemm(A, B, C, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):\n"
    "    row, col, z = ct.bid(0), ct.bid(1), ct.bid(2)\n"
    "    acc = ct.zeros((1, BM, BN), dtype=ct.float32)\n"
    "    for k in range(ct.cdiv(A.shape[2], BK)):\n"
    "        a = ct.load(A, index=(z, row, k), shape=(1, BM, BK), padding_mode=ct.PaddingMode.ZERO)\n"
    "        b = ct.load(B, index=(z, k, col), shape=(1, BK, BN), padding_mode=ct.PaddingMode.ZERO)\n"
    "        acc = ct.mma(a, b, acc)\n"
    "    ct.store(C, index=(z, row, col), tile=acc.astype(C.dtype))\n";

std::string transpile_gemm(const char* source, const std::string& sig) {
  TranspileOptions o;
  o.signatures = {sig};
  o.header_name = "gemm.cuh";
  TranspileResult r = transpile("gemm.py", source, o);
  EXPECT_TRUE(r.ok) << r.diagnostics;
  return r.cu;
}

TEST(EmitGemm, WgmmaLoopOnMatricesTakesTensorMaps) {
  const std::string cu =
      transpile_gemm(kGemm2d, "A=bfloat16[?, ?], B=bfloat16[?, ?], C=bfloat16[?, ?], BM=128, BN=256, BK=64");
  EXPECT_TRUE(contains(cu, "    const __grid_constant__ GemmTensorMaps A_B_tma) {")) << cu;
  EXPECT_TRUE(contains(cu, "acc, smem, &A_B_tma);")) << cu;
  // The boxes are the emitter's (A's BM x 64, B's BK x 64), the ones the launch plan carries.
  EXPECT_TRUE(contains(cu, "const tile2cu::GemmTensorMaps A_B_tma = tile2cu::gemm_tensor_maps("
                           "A_arg, B_arg, {128, 64}, {64, 64}, major);"))
      << cu;
  EXPECT_TRUE(contains(cu, "C_arg.stride[1],\n    A_B_tma);")) << cu;
}

TEST(EmitGemm, OtherLoopsTakeNoTensorMaps) {
  // BK = 32 (mma.sync only), rank-3 operands (wgmma, cp.async): no TMA parameter, no encoding.
  const std::string sigs[][2] = {
      {kGemm2d, "A=bfloat16[?, ?], B=bfloat16[?, ?], C=bfloat16[?, ?], BM=128, BN=256, BK=32"},
      {kGemm3d, "A=float16[?, ?, ?], B=float16[?, ?, ?], C=float16[?, ?, ?], BM=128, BN=128, BK=64"},
  };
  for (const auto& [source, sig] : sigs) {
    const std::string cu = transpile_gemm(source.c_str(), sig);
    EXPECT_TRUE(contains(cu, "gemm_main_loop<")) << sig;
    EXPECT_FALSE(contains(cu, "GemmTensorMaps")) << sig << "\n" << cu;
  }
}

}  // namespace
}  // namespace tile2cu
