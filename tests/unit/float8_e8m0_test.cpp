// float8_e8m0fnu (spec b.4): unsigned, exponent only, mma_scaled's scale factors. Its constants
// fold as cuTile folds them, its conversions follow cuTile's rounding table (spec b.7), and the
// generated code builds (cuda_fp8.h's __nv_fp8_e8m0). cuTile's test_constfold.py and
// test_cast.py::test_reject_astype_rounding_mode_from_float8_e8m0fnu check the same.
#include <gtest/gtest.h>

#include "nvcc_compile.hpp"
#include "sema_test_util.hpp"
#include "text_match.hpp"
#include "transpile_one.hpp"

namespace tile2cu {
namespace {

const char* kSig = "x=float64[?], y=float32[?]";

std::string kernel(const std::string& lines) { return "@ct.kernel\ndef k(x, y):\n" + lines; }

// To the nearer power of two (a significand of 1.5 rounds up), zero to 2**-127, as
// test_strictly_typed_float_constant_rounding's ct.float64(ct.float8_e8m0fnu(0.2)) == 0.25.
TEST(Float8E8M0, ConstantsRoundToPowersOfTwo) {
  TranspileResult r = transpile_one("def k(x, y):\n"
                                    "    ct.scatter(x, 0, ct.float64(ct.float8_e8m0fnu(0.2)))\n"
                                    "    ct.scatter(x, 1, ct.float64(ct.float8_e8m0fnu(0.7)))\n"
                                    "    ct.scatter(x, 2, ct.float64(ct.float8_e8m0fnu(3)))\n"
                                    "    ct.scatter(x, 3, ct.float64(ct.float8_e8m0fnu(0)))\n"
                                    "    ct.printf('%f', ct.float8_e8m0fnu(1.5))\n",
                                    kSig);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "__nv_fp8_e8m0(0.25f)")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "__nv_fp8_e8m0(0.5f)")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "__nv_fp8_e8m0(4.0f)")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "__nv_fp8_e8m0(5.877472e-39f)")) << r.cu;  // 2**-127
  EXPECT_TRUE(contains(r.cu, "__nv_fp8_e8m0(2.0f)")) << r.cu;
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_80"), 0) << r.cu;
}

// test_strictly_typed_unsigned_float_constant_from_negative: cuTile's TileValueError.
TEST(Float8E8M0, NegativeConstantsAreRefused) {
  const char* why = "Negative values cannot be represented in an unsigned float format";
  EXPECT_KERNEL_ERROR(kernel("    ct.float8_e8m0fnu(-0.2)\n"), kSig, ErrorKind::Value, why);
  EXPECT_KERNEL_ERROR(kernel("    ct.float8_e8m0fnu(-0.0)\n"), kSig, ErrorKind::Value, why);
  EXPECT_KERNEL_ERROR(kernel("    t = ct.full((2,), -1, ct.float8_e8m0fnu)\n"), kSig, ErrorKind::Value, why);
}

// cuTile's table: from float8_e8m0fnu only RN and RZ into float32 and float16
// (test_reject_astype_rounding_mode_from_float8_e8m0fnu); into it only RZ and RP, so a plain
// astype is refused too; integers do not convert into it.
TEST(Float8E8M0, RoundingModesFollowCuTilesTable) {
  for (const char* to : {"float32", "float16"})
    for (const char* mode : {"RA", "RM", "RP"})
      EXPECT_KERNEL_ERROR(kernel(std::string("    t = ct.ones((2,), dtype=ct.float8_e8m0fnu)\n") +
                                 "    u = t.astype(ct." + to + ", rounding_mode=ct.RoundingMode." + mode + ")\n"),
                          kSig, ErrorKind::Type,
                          std::string("rounding_mode=RoundingMode.") + mode +
                              " is not supported for conversion from float8_e8m0fnu to " + to +
                              ", supported rounding modes for this conversion are (RoundingMode.RN, RoundingMode.RZ)");
  EXPECT_KERNEL_ERROR(kernel("    t = ct.load(y, index=(0,), shape=(2,)).astype(ct.float8_e8m0fnu)\n"), kSig,
                      ErrorKind::Type,
                      "rounding_mode=RoundingMode.RN is not supported for conversion from float32 to float8_e8m0fnu, "
                      "supported rounding modes for this conversion are (RoundingMode.RZ, RoundingMode.RP)");
  EXPECT_KERNEL_ERROR(kernel("    t = ct.float8_e8m0fnu(ct.bid(0) * 1.0)\n"), kSig, ErrorKind::Type,
                      "rounding_mode=RoundingMode.RN is not supported for conversion from float32 to float8_e8m0fnu");
  EXPECT_KERNEL_ERROR(kernel("    t = ct.full((2,), 3, ct.int32).astype(ct.float8_e8m0fnu)\n"), kSig,
                      ErrorKind::UnsupportedFeature, "astype from int32 to float8_e8m0fnu is not supported by tile2cu");
  EXPECT_KERNEL_ERROR(kernel("    t = ct.ones((2,), dtype=ct.float8_e8m0fnu).astype(ct.float16, rounding_mode=ct.RoundingMode.RZ)\n"),
                      kSig, ErrorKind::UnsupportedFeature,
                      "astype(rounding_mode=RZ) from float8_e8m0fnu to float16 is not supported yet by tile2cu");
  EXPECT_KERNEL_ERROR(kernel("    t = ct.ones((2,), dtype=ct.float8_e8m0fnu) + 1\n"), kSig, ErrorKind::Type, "");
}

// Tiles of it are made, converted both ways (into it toward zero and up) and printed; the
// generated code builds.
TEST(Float8E8M0, TilesConvertAndBuild) {
  TranspileResult r = transpile_one(
      "def k(x, y):\n"
      "    t = ct.load(y, index=(0,), shape=(16,))\n"
      "    down = t.astype(ct.float8_e8m0fnu, rounding_mode=ct.RoundingMode.RZ)\n"
      "    up = ct.astype(t, ct.float8_e8m0fnu, rounding_mode=ct.RoundingMode.RP)\n"
      "    s = ct.full((16,), 0.3, ct.float8_e8m0fnu)\n"
      "    ct.printf('%f', s)\n"
      "    h = s.astype(ct.float16)\n"
      "    e = ct.full((16,), 1.5, ct.float8_e4m3fn)\n"  // a fill keeps its fraction in fp8 too
      "    ct.printf('%f', e)\n"
      "    ct.store(y, index=(0,), tile=down.astype(ct.float32) + up.astype(ct.float32) + h.astype(ct.float32))\n"
      "    ct.store(x, index=(0,), tile=s.astype(ct.float64, rounding_mode=ct.RoundingMode.RM))\n",
      kSig);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "astype_rz<__nv_fp8_e8m0>")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "astype_rp<__nv_fp8_e8m0>")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "full<Layout_16>(__nv_fp8_e8m0(0.25f))")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "__nv_fp8_e4m3(1.5f)")) << r.cu;
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_80"), 0) << r.cu;
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_100a"), 0) << r.cu;  // the PTX cvt path
}

}  // namespace
}  // namespace tile2cu
