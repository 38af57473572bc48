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
                           // max ignoring NaN starts from NaN, so a row of NaNs stays NaN
                           "[](float a, float b) { return maximum_ftz(a, b); }, NAN, smem)",
                           "[](float a, float b) { return mul_rm(a, b); }, 1.0f, smem)",
                           "scan_with<1>(t, [](float a, float b) { return add_rp(a, b); }, 0.0f, smem)",
                           "scan_with<0>(t, [](float a, float b) { return mul_ftz(a, b); }, 1.0f, smem)"})
    EXPECT_TRUE(contains(r.cu, call)) << call << "\n" << r.cu;
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh"), 0) << r.cu;
}

TEST(MathOptions, AstypeRoundings) {
  TranspileOptions options;
  options.header_name = "k.cuh";
  options.signatures = {"k(a=float64[?], b=bfloat16[?], o32=float32[?], o16=float16[?], obf=bfloat16[?], TILE=16)"};
  const std::string source =
      "import cuda.tile as ct\n\n"
      "@ct.kernel\n"
      "def k(a, b, o32, o16, obf, TILE: ct.Constant[int]):\n"
      "    d = ct.load(a, index=(ct.bid(0),), shape=(TILE,))\n"
      "    h = ct.load(b, index=(ct.bid(0),), shape=(TILE,))\n"
      "    s = d.astype(ct.float32, rounding_mode=ct.RoundingMode.RM)\n"
      "    s = s + ct.astype(h, ct.float32, rounding_mode=ct.RoundingMode.RZ)\n"
      "    ct.store(o32, index=(ct.bid(0),), tile=s)\n"
      "    ct.store(o16, index=(ct.bid(0),), tile=h.astype(ct.float16, rounding_mode=ct.RoundingMode.RP))\n"
      "    ct.store(o16, index=(ct.bid(0),), tile=h.astype(ct.float16, rounding_mode=ct.RoundingMode.RA))\n"
      "    ct.store(obf, index=(ct.bid(0),), tile=d.astype(ct.bfloat16, rounding_mode=ct.RoundingMode.RZ))\n";
  TranspileResult r = transpile("k.py", source, options);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  // bf16 -> f32 is exact: a plain astype.
  for (const char* call : {"astype_rm<float>(d)", "astype<float>(h)", "astype_rp<__half>(h)", "astype_ra<__half>(h)",
                           "astype_rz<__nv_bfloat16>(d)"})
    EXPECT_TRUE(contains(r.cu, call)) << call << "\n" << r.cu;
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh"), 0) << r.cu;
}

// ct.astype(x, dtype, rounding_mode=m) rounds as x.astype(dtype, rounding_mode=m) (the function
// form dropped the mode); float32 -> tfloat32 takes RA and RZ besides the default RN (cuTile's
// test_astype_rounding_mode_f32_tf32 / _f64_f32 with use_method=False). The roundings' bits are
// checked on the host by tests/runtime/tf32_rounding_test.cu.
TEST(MathOptions, AstypeFunctionRoundsAndTf32Modes) {
  TranspileOptions options;
  options.header_name = "k.cuh";
  options.signatures = {"k(a=float64[?], x=float32[?], o32=float32[?], TILE=16)"};
  const std::string source =
      "import cuda.tile as ct\n\n"
      "@ct.kernel\n"
      "def k(a, x, o32, TILE: ct.Constant[int]):\n"
      "    d = ct.load(a, index=(ct.bid(0),), shape=(TILE,))\n"
      "    f = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    s = ct.astype(d, ct.float32, rounding_mode=ct.RoundingMode.RM)\n"
      "    s = s + ct.astype(ct.astype(f, ct.tfloat32, rounding_mode=ct.RoundingMode.RA), ct.float32)\n"
      "    s = s + f.astype(ct.tfloat32, rounding_mode=ct.RoundingMode.RZ).astype(ct.float32)\n"
      "    s = s + ct.astype(f, ct.tfloat32, rounding_mode=ct.RoundingMode.RN).astype(ct.float32)\n"
      "    ct.store(o32, index=(ct.bid(0),), tile=s)\n";
  TranspileResult r = transpile("k.py", source, options);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  for (const char* call : {"astype_rm<float>(d)", "astype_ra<tfloat32>(f)", "astype_rz<tfloat32>(f)", "astype<tfloat32>(f)"})
    EXPECT_TRUE(contains(r.cu, call)) << call << "\n" << r.cu;
  auto failure = [](const std::string& expr) -> std::string {
    TranspileOptions o;
    o.signatures = {"k(a=float32[?], TILE=16)"};
    TranspileResult f = transpile("k.py", "import cuda.tile as ct\n@ct.kernel\ndef k(a, TILE: ct.Constant[int]):\n"
                                           "    t = ct.load(a, index=(0,), shape=(TILE,))\n    u = " + expr + "\n", o);
    return f.ok ? "accepted" : f.diagnostics;
  };
  EXPECT_NE(failure("ct.astype(t, ct.tfloat32, rounding_mode=ct.RoundingMode.RM)")
                .find("rounding_mode=RoundingMode.RM is not supported for conversion from float32 to tfloat32"),
            std::string::npos);
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh"), 0) << r.cu;
}

TEST(MathOptions, AstypeRoundingErrors) {
  auto failure = [](const std::string& expr, const std::string& dtype) -> std::string {
    TranspileOptions options;
    options.signatures = {"k(a=" + dtype + "[?], TILE=16)"};
    const std::string source = "import cuda.tile as ct\n@ct.kernel\ndef k(a, TILE: ct.Constant[int]):\n"
                               "    t = ct.load(a, index=(0,), shape=(TILE,))\n    u = " + expr + "\n";
    TranspileResult r = transpile("k.py", source, options);
    return r.ok ? "accepted" : r.diagnostics;
  };
  EXPECT_NE(failure("t.astype(ct.float16, rounding_mode=ct.RoundingMode.RM)", "float32")
                .find("rounding_mode=RoundingMode.RM is not supported for conversion from float32 to float16, supported rounding modes for this conversion are (RoundingMode.RN, RoundingMode.RZ)"),
            std::string::npos);
  EXPECT_NE(failure("t.astype(ct.bfloat16, rounding_mode=ct.RoundingMode.RP)", "float32").find("TileTypeError"),
            std::string::npos);
  EXPECT_NE(failure("t.astype(ct.int32, rounding_mode=ct.RoundingMode.RZ)", "float32")
                .find("rounding_mode is only valid for float to float conversions"),
            std::string::npos);
  // cuTile's table has only RN into fp8.
  EXPECT_NE(failure("t.astype(ct.float8_e4m3fn, rounding_mode=ct.RoundingMode.RZ)", "float32")
                .find("error[TileTypeError]: rounding_mode=RoundingMode.RZ is not supported for conversion from float32 to "
                      "float8_e4m3fn, supported rounding modes for this conversion are (RoundingMode.RN)"),
            std::string::npos);
  EXPECT_EQ(failure("t.astype(ct.float16, rounding_mode=ct.RoundingMode.RA)", "bfloat16"), "accepted");
  EXPECT_NE(failure("t.astype(ct.float32, rounding_mode=ct.RoundingMode.RA)", "float64").find("are (RoundingMode.RN, RoundingMode.RZ, RoundingMode.RM, RoundingMode.RP)"),
            std::string::npos);
  EXPECT_EQ(failure("t.astype(ct.float32, rounding_mode=ct.RoundingMode.FULL)", "float32"), "accepted");  // same dtype
  EXPECT_EQ(failure("t.astype(ct.float64, rounding_mode=ct.RoundingMode.RA)", "float32"), "accepted");  // exact
}

}  // namespace
}  // namespace tile2cu
