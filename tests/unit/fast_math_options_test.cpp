// truediv's FULL and APPROX modes, alone and with flush_to_zero (the kernel collection's usual
// `rounding_mode=APPROX, flush_to_zero=True`), and sqrt's APPROX with flush_to_zero: the runtime
// function each selects, in the generated text and built by nvcc. Their quotients are checked
// against the PTX instructions on the GPU (tests/gpu/divide_check.cu).
#include <gtest/gtest.h>

#include <string>

#include "nvcc_compile.hpp"
#include "text_match.hpp"
#include "tile2cu/tile2cu.hpp"

namespace tile2cu {
namespace {

const char* kKernel = R"(import cuda.tile as ct

APPROX = ct.RoundingMode.APPROX
FULL = ct.RoundingMode.FULL

@ct.kernel
def k(a, out, TILE: ct.Constant[int]):
    t = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    s = ct.sum(t)
    r = ct.truediv(t, s, rounding_mode=APPROX, flush_to_zero=True)
    r = r + ct.truediv(t, s, rounding_mode=FULL, flush_to_zero=True)
    r = r + ct.truediv(t, s, rounding_mode=FULL)
    r = r + ct.truediv(t, t + 1.0, rounding_mode=APPROX)
    r = r + ct.sqrt(t, rounding_mode=APPROX, flush_to_zero=True)
    ct.store(out, index=(ct.bid(0),), tile=r)
)";

TEST(FastMathOptions, EachModeSelectsItsRuntimeFunction) {
  TranspileOptions options;
  options.header_name = "k.cuh";
  options.signatures = {"k(a=float32[?], out=float32[?], TILE=256)"};
  TranspileResult r = transpile("k.py", kKernel, options);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "div_approx_ftz(t, s)")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "div_full_ftz(t, s)")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "div_full(t, s)")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "div_approx(t, t + 1.0f)")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "sqrt_approx_ftz(t)")) << r.cu;
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh"), 0) << r.cu;
}

}  // namespace
}  // namespace tile2cu
