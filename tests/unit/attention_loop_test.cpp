// The flash-attention loop recognition pass (src/ir/passes/attention_loop.cpp): the sample's
// loop becomes one attention_loop op with its score ops scalarised; loops it cannot take stay
// loops, and those still transpile (the general path).
#include <gtest/gtest.h>

#include <string>

#include "ir/passes/attention_loop.hpp"
#include "tile2cu/tile2cu.hpp"

namespace tile2cu {
namespace {

const char* kSoftmax =
    "        m_new = ct.maximum(m, ct.max(s, axis=1, keepdims=True))\n"
    "        p = ct.exp2(s - m_new)\n"
    "        alpha = ct.exp2(m - m_new)\n";
const char* kMask = "        s = ct.where(keep, s, -float('inf'))\n";

// samples/attention.py's kernel with its key-loop statements replaced where a test says so.
std::string attention_kernel(const std::string& softmax = kSoftmax, const std::string& mask = kMask) {
  return "import cuda.tile as ct\n"
         "@ct.kernel\n"
         "def attention_fwd(Q, K, V, O, scale: float, BM: ct.Constant[int], BN: ct.Constant[int],\n"
         "                  D: ct.Constant[int], CAUSAL: ct.Constant[bool]):\n"
         "    block = ct.bid(0)\n"
         "    head = ct.bid(1)\n"
         "    seq = Q.shape[1]\n"
         "    q = ct.load(Q, index=(head, block, 0), shape=(1, BM, D), padding_mode=ct.PaddingMode.ZERO)\n"
         "    q = q.reshape((BM, D))\n"
         "    m = ct.full((BM, 1), -float('inf'), dtype=ct.float32)\n"
         "    l = ct.zeros((BM, 1), dtype=ct.float32)\n"
         "    acc = ct.zeros((BM, D), dtype=ct.float32)\n"
         "    qk_scale = scale * 1.4426950408889634\n"
         "    rows = block * BM + ct.arange(BM, dtype=ct.int32).reshape((BM, 1))\n"
         "    key_tiles = ct.cdiv(seq, BN)\n"
         "    if CAUSAL:\n"
         "        key_tiles = ct.cdiv(min((block + 1) * BM, seq), BN)\n"
         "    for j in range(key_tiles):\n"
         "        kt = ct.load(K, index=(head, 0, j), shape=(1, D, BN), order=(0, 2, 1), padding_mode=ct.PaddingMode.ZERO)\n"
         "        s = ct.mma(q, kt.reshape((D, BN)), ct.zeros((BM, BN), dtype=ct.float32)) * qk_scale\n"
         "        cols = j * BN + ct.arange(BN, dtype=ct.int32).reshape((1, BN))\n"
         "        keep = cols < seq\n"
         "        if CAUSAL:\n"
         "            keep = keep & (cols <= rows)\n" +
         mask + softmax +
         "        l = l * alpha + ct.sum(p, axis=1, keepdims=True)\n"
         "        v = ct.load(V, index=(head, j, 0), shape=(1, BN, D), padding_mode=ct.PaddingMode.ZERO)\n"
         "        acc = ct.mma(p.astype(Q.dtype), v.reshape((BN, D)), acc * alpha)\n"
         "        m = m_new\n"
         "    out = acc / l\n"
         "    ct.store(O, index=(head, block, 0), tile=out.astype(O.dtype).reshape((1, BM, D)))\n";
}

TranspileResult transpile_attention(const std::string& source, const std::string& bm = "64", bool causal = true) {
  TranspileOptions opts;
  opts.signatures = {"Q=bfloat16[?, ?, 128], K=bfloat16[?, ?, 128], V=bfloat16[?, ?, 128], O=bfloat16[?, ?, 128], "
                     "scale=float32, BM=" + bm + ", BN=64, D=128, CAUSAL=" + (causal ? "True" : "False")};
  return transpile("attention.py", source, opts);
}

TEST(AttentionLoop, SampleLoopBecomesOneOpWithItsMaskScalarised) {
  TranspileResult r = transpile_attention(attention_kernel());
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_EQ(r.ir.find(" for "), std::string::npos) << r.ir;
  EXPECT_NE(r.ir.find("attention_loop K shape=(1, 128, 64) order=(0, 2, 1) x V shape=(1, 64, 128) stages=2 exp2"),
            std::string::npos) << r.ir;
  // The causal and ragged masks, one element at a time: cols = j * 64 + col, rows = block * 64 + row.
  EXPECT_NE(r.ir.find("compare lt %"), std::string::npos) << r.ir;
  EXPECT_NE(r.ir.find("compare le %"), std::string::npos) << r.ir;
  EXPECT_NE(r.ir.find("select %"), std::string::npos) << r.ir;
  // Nothing else of the loop is left: no arange tiles, no reductions, no mma.
  EXPECT_EQ(r.ir.find("arange"), std::string::npos) << r.ir;
  EXPECT_EQ(r.ir.find("reduce"), std::string::npos) << r.ir;
  EXPECT_EQ(r.ir.find(" mma "), std::string::npos) << r.ir;
  // The generated code names its configuration and calls the runtime once.
  EXPECT_NE(r.cu.find("constexpr int kAttentionLoop_64x64x128_Stages = 2;"), std::string::npos) << r.cu;
  EXPECT_NE(r.cu.find("using AttentionLoop_64x64x128 = AttentionMainLoop<__nv_bfloat16, 64, 64, 128, "
                      "kAttentionLoop_64x64x128_Stages, kThreads, /*Exp2=*/true>;"),
            std::string::npos) << r.cu;
  EXPECT_NE(r.cu.find("constexpr int kThreads = 128;"), std::string::npos) << r.cu;  // a warp per 16 rows
  EXPECT_NE(r.cu.find("attention_main_loop<AttentionLoop_64x64x128>(K, {head, 0, 0}, V, {head, 0, 0}, 0, key_tiles"),
            std::string::npos) << r.cu;
  EXPECT_NE(r.cu.find("[&](float s, int32_t row, int32_t col, int32_t j, bool interior) {"), std::string::npos) << r.cu;
}

// The masks of the score, split out so that the main loop skips them on tiles they cannot
// change (src/ir/passes/attention_mask.cpp): causal and sequence-end masks are affine in the
// element's row and column, so their conjunction is checked at a tile's corners.
TEST(AttentionMask, AffineMasksBecomeTheMaskRegion) {
  TranspileResult r = transpile_attention(attention_kernel());
  ASSERT_TRUE(r.ok) << r.diagnostics;
  const size_t mask = r.ir.find(" mask(");
  const size_t score = r.ir.find("} score(");
  ASSERT_NE(mask, std::string::npos) << r.ir;
  ASSERT_NE(score, std::string::npos) << r.ir;
  const std::string mask_region = r.ir.substr(mask, score - mask);
  EXPECT_NE(mask_region.find("compare lt"), std::string::npos) << mask_region;  // cols < seq
  EXPECT_NE(mask_region.find("compare le"), std::string::npos) << mask_region;  // cols <= rows
  EXPECT_NE(mask_region.find("binary bitwise_and"), std::string::npos) << mask_region;
  EXPECT_EQ(mask_region.find(".s ="), std::string::npos) << mask_region;        // no score arithmetic
  // The score's where reads `interior | keep`; the main loop gets both lambdas.
  EXPECT_NE(r.ir.find("binary bitwise_or %"), std::string::npos) << r.ir;
  EXPECT_NE(r.cu.find("where(bitwise_or(interior, keep"), std::string::npos) << r.cu;
  EXPECT_NE(r.cu.find("[&](int32_t row_2, int32_t col_2, int32_t j_2) {"), std::string::npos) << r.cu;
}

TEST(AttentionMask, AMaskThatIsNotAffineStaysInEveryTile) {
  for (const char* where : {"        s = ct.where(keep & (cols % 2 == 0), s, -float('inf'))\n",  // modulo
                            "        s = ct.where(cols != rows, s, -float('inf'))\n",            // != is not convex
                            "        s = ct.where(cols * cols < seq, s, -float('inf'))\n",       // quadratic
                            "        s = ct.where(s > 0.0, s, -float('inf'))\n"}) {              // data-dependent
    TranspileResult r = transpile_attention(attention_kernel(kSoftmax, where));
    ASSERT_TRUE(r.ok) << r.diagnostics;
    ASSERT_NE(r.ir.find("attention_loop"), std::string::npos) << where << r.ir;
    EXPECT_EQ(r.ir.find("bitwise_or"), std::string::npos) << where << r.ir;
    // Every tile counts as interior, and the mask is left to the score, element by element.
    EXPECT_NE(r.cu.find("[&](int32_t row_2, int32_t col_2, int32_t j_2) { return true; }"), std::string::npos)
        << where << r.cu;
  }
}

TEST(AttentionMask, ASlidingWindowIsAffineToo) {
  // Keys within 256 positions before the query: cols > rows - 256, and scaled rows (2 * rows).
  TranspileResult r = transpile_attention(attention_kernel(
      kSoftmax, "        s = ct.where(keep & (cols > rows - 256) & (cols <= 2 * rows), s, -float('inf'))\n"));
  ASSERT_TRUE(r.ok) << r.diagnostics;
  const std::string mask_region = r.ir.substr(r.ir.find(" mask("), r.ir.find("} score(") - r.ir.find(" mask("));
  EXPECT_NE(mask_region.find("compare gt"), std::string::npos) << mask_region;
  EXPECT_NE(mask_region.find("binary mul"), std::string::npos) << mask_region;
  EXPECT_NE(r.cu.find("where(bitwise_or(interior, "), std::string::npos) << r.cu;
}

TEST(AttentionLoop, NonCausalAndExpVariantsMatchToo) {
  TranspileResult plain = transpile_attention(attention_kernel(), "64", false);
  ASSERT_TRUE(plain.ok) << plain.diagnostics;
  EXPECT_NE(plain.ir.find("attention_loop"), std::string::npos) << plain.ir;
  EXPECT_EQ(plain.ir.find("compare le"), std::string::npos) << plain.ir;  // no causal mask
  TranspileResult natural = transpile_attention(attention_kernel(
      "        m_new = ct.maximum(ct.max(s, axis=1, keepdims=True), m)\n"
      "        p = ct.exp(s - m_new)\n"
      "        alpha = ct.exp(m - m_new)\n"));
  ASSERT_TRUE(natural.ok) << natural.diagnostics;
  EXPECT_NE(natural.ir.find("stages=2 exp "), std::string::npos) << natural.ir;
  EXPECT_NE(natural.cu.find("/*Exp2=*/false"), std::string::npos) << natural.cu;
}

TEST(AttentionLoop, TwoWarpgroupTilesTakeWgmmaOnHopper) {
  TranspileResult r = transpile_attention(attention_kernel(), "128");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_NE(r.cu.find("constexpr int kThreads = 256;"), std::string::npos) << r.cu;
  EXPECT_NE(r.cu.find("on sm_90a wgmma instead"), std::string::npos) << r.cu;
  EXPECT_TRUE(ir::attention_wgmma_tiles(DType::BFloat16, 128, 64, 128));
  EXPECT_FALSE(ir::attention_wgmma_tiles(DType::BFloat16, 64, 64, 128));
  EXPECT_FALSE(ir::attention_wgmma_tiles(DType::Float32, 128, 64, 128));
}

// The wgmma loop's K and V come through the copy engine: the kernel takes their tensor maps as a
// __grid_constant__ parameter (src/emit/tensor_maps.cpp), the launcher encodes them, and the loop
// gets a pointer. The mma.sync-only tile (BM = 64) takes none.
TEST(AttentionLoop, WgmmaLoopTakesTensorMapsForKAndV) {
  TranspileResult r = transpile_attention(attention_kernel(), "128");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_NE(r.cu.find("    float scale,\n    const __grid_constant__ AttentionTensorMaps K_V_tma) {"), std::string::npos)
      << r.cu;
  EXPECT_NE(r.cu.find("}, smem, &K_V_tma);"), std::string::npos) << r.cu;
  // Boxes of one BN-key tile of 64 of D at a fixed leading index (the launch plan's too).
  EXPECT_NE(r.cu.find("const tile2cu::AttentionTensorMaps K_V_tma = tile2cu::attention_tensor_maps("
                      "K_arg, V_arg, {1, 64, 64}, {1, 64, 64}, major);"),
            std::string::npos)
      << r.cu;
  EXPECT_NE(r.cu.find("    scale,\n    K_V_tma);"), std::string::npos) << r.cu;

  TranspileResult small = transpile_attention(attention_kernel(), "64");
  ASSERT_TRUE(small.ok) << small.diagnostics;
  EXPECT_NE(small.cu.find("attention_main_loop<"), std::string::npos);
  EXPECT_EQ(small.cu.find("TensorMaps"), std::string::npos) << small.cu;
}

// Loops the pass cannot take exactly stay loops, and the general path still transpiles them.
TEST(AttentionLoop, OtherShapesStayLoopsAndStillTranspile) {
  const std::string mismatched_exp =  // p and alpha must use the same exponential
      "        m_new = ct.maximum(m, ct.max(s, axis=1, keepdims=True))\n"
      "        p = ct.exp2(s - m_new)\n"
      "        alpha = ct.exp(m - m_new)\n";
  const std::string row_dependent_mask =  // a reduction inside the score ops: not elementwise
      "        s = s - ct.sum(s, axis=1, keepdims=True)\n";
  const std::string rescaled_by_other =  // max taken over something other than s
      "        m_new = ct.maximum(m, ct.max(s * 2.0, axis=1, keepdims=True))\n"
      "        p = ct.exp2(s - m_new)\n"
      "        alpha = ct.exp2(m - m_new)\n";
  for (const std::string& source : {attention_kernel(mismatched_exp), attention_kernel(rescaled_by_other),
                                    attention_kernel(kSoftmax, std::string(kMask) + row_dependent_mask)}) {
    TranspileResult r = transpile_attention(source);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_EQ(r.ir.find("attention_loop"), std::string::npos) << r.ir;
    EXPECT_NE(r.ir.find(" for "), std::string::npos) << r.ir;
    EXPECT_NE(r.cu.find("mma("), std::string::npos) << r.cu;  // the general per-op path
    EXPECT_EQ(r.cu.find("attention_main_loop"), std::string::npos) << r.cu;
  }
}

TEST(AttentionLoop, StagesFitTheBudget) {
  EXPECT_EQ(ir::attention_pipeline_stages(DType::BFloat16, 64, 64, 128), 2);
  EXPECT_EQ(ir::attention_pipeline_stages(DType::BFloat16, 128, 64, 128), 2);
  EXPECT_EQ(ir::attention_pipeline_stages(DType::BFloat16, 128, 128, 128), 0);  // 174 KiB: past sm_80's
  // The mma.sync form's bytes (padded rows) and, where wgmma applies, the larger swizzled form's.
  EXPECT_EQ(ir::attention_loop_smem_bytes(DType::BFloat16, 64, 64, 128, 2), 64u * 136 * 2 + 2 * 2 * 64 * 136 * 2);
  // At BM = 128 the float exchange of acc (rows padded by 8 floats), m and l outgrows the ring.
  EXPECT_EQ(ir::attention_loop_smem_bytes(DType::BFloat16, 128, 64, 128, 2), 128u * 136 * 2 + (128u * 136 + 2 * 128) * 4);
}

}  // namespace
}  // namespace tile2cu
