// rounding_mode= / flush_to_zero= / propagate_nan= (spec c.15): every combination an op accepts
// selects a runtime function, in the elementwise ops, the reductions and the scans; checked in
// the generated text and built by nvcc. The functions' results are checked on the GPU:
// tests/gpu/divide_check.cu (FULL / APPROX division against the PTX instructions) and
// tests/runtime/runtime_test.cu (the rest).
#include <gtest/gtest.h>

#include <string>

#include "nvcc_compile.hpp"
#include "text_match.hpp"
#include "tile2cu/tile2cu.hpp"

namespace tile2cu {
namespace {

TranspileResult transpile_kernel(const std::string& body) {
  TranspileOptions options;
  options.header_name = "k.cuh";
  options.signatures = {"k(a=float32[?, ?], out=float32[?, ?], TILE=16)"};
  const std::string source =
      "import cuda.tile as ct\n\n"
      "APPROX = ct.RoundingMode.APPROX\nFULL = ct.RoundingMode.FULL\nRZ = ct.RoundingMode.RZ\n"
      "RM = ct.RoundingMode.RM\nRP = ct.RoundingMode.RP\n\n"
      "@ct.kernel\n"
      "def k(a, out, TILE: ct.Constant[int]):\n"
      "    t = ct.load(a, index=(ct.bid(0), 0), shape=(TILE, TILE))\n" + body +
      "    ct.store(out, index=(ct.bid(0), 0), tile=r)\n";
  return transpile("k.py", source, options);
}

TEST(MathOptions, DivisionAndSquareRoot) {
  TranspileResult r = transpile_kernel(
      "    s = ct.sum(t)\n"
      "    r = ct.truediv(t, s, rounding_mode=APPROX, flush_to_zero=True)\n"
      "    r = r + ct.truediv(t, s, rounding_mode=FULL, flush_to_zero=True)\n"
      "    r = r + ct.truediv(t, s, rounding_mode=FULL)\n"
      "    r = r + ct.truediv(t, t + 1.0, rounding_mode=APPROX)\n"
      "    r = r + ct.truediv(t, t + 1.0, rounding_mode=RM, flush_to_zero=True)\n"
      "    r = r + ct.sqrt(t, rounding_mode=APPROX, flush_to_zero=True)\n"
      "    r = r + ct.sqrt(t, rounding_mode=RZ, flush_to_zero=True)\n");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  for (const char* call : {"div_approx_ftz(t, s)", "div_full_ftz(t, s)", "div_full(t, s)", "div_approx(t, t + 1.0f)",
                           "div_rm_ftz(t, t + 1.0f)", "sqrt_approx_ftz(t)", "sqrt_rz_ftz(t)"})
    EXPECT_TRUE(contains(r.cu, call)) << call << "\n" << r.cu;
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh"), 0) << r.cu;
}

TEST(MathOptions, ArithmeticMinMaxReductionsAndScans) {
  TranspileResult r = transpile_kernel(
      "    r = ct.add(t, 1.0, flush_to_zero=True) + ct.sub(t, 2.0, rounding_mode=RZ, flush_to_zero=True)\n"
      "    r = r + ct.mul(t, t, rounding_mode=RP) + ct.add(t, t, rounding_mode=ct.RoundingMode.RN)\n"
      "    r = r + ct.maximum(t, 0.5, flush_to_zero=True) + ct.minimum(t, 0.5, flush_to_zero=True, propagate_nan=True)\n"
      "    r = r + ct.sum(t, axis=1, keepdims=True, rounding_mode=RZ, flush_to_zero=True)\n"
      "    r = r + ct.max(t, axis=0, keepdims=True, flush_to_zero=True)\n"
      "    r = r + ct.prod(t, rounding_mode=RM)\n"
      "    r = r + ct.cumsum(t, axis=1, rounding_mode=RP) + ct.cumprod(t, axis=0, flush_to_zero=True)\n");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  for (const char* call : {"add_ftz(t, 1.0f)", "sub_rz_ftz(t, 2.0f)", "mul_rp(t, t)", "t + t", "maximum_ftz(t, 0.5f)",
                           "minimum_nan_ftz(t, 0.5f)",
                           "[](float a, float b) { return add_rz_ftz(a, b); }, 0.0f, smem)",
                           "[](float a, float b) { return maximum_ftz(a, b); }, -INFINITY, smem)",
                           "[](float a, float b) { return mul_rm(a, b); }, 1.0f, smem)",
                           "scan_with<1>(t, [](float a, float b) { return add_rp(a, b); }, 0.0f, smem)",
                           "scan_with<0>(t, [](float a, float b) { return mul_ftz(a, b); }, 1.0f, smem)"})
    EXPECT_TRUE(contains(r.cu, call)) << call << "\n" << r.cu;
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh"), 0) << r.cu;
}

}  // namespace
}  // namespace tile2cu
