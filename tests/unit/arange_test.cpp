// ct.arange with float starts and steps (cuTile's test_arange[*-4-8.5--1.1]): into an integer
// dtype they are truncated toward zero, as torch.arange's start and step are (8, 7, 6, 5); into
// a float dtype they keep their fractions, the runtime computing start + i * step in float
// (tile.cuh), where it computed in int64 and lost them.
#include <gtest/gtest.h>

#include <string>

#include "nvcc_compile.hpp"
#include "text_match.hpp"
#include "transpile_one.hpp"

namespace tile2cu {
namespace {

TranspileResult arange_kernel(const std::string& dtype) {
  return transpile_one(
      "def k(x):\n"
      "    tx = ct.arange(4, start=8.5, step=-1.1, dtype=x.dtype)\n"
      "    ct.store(x, index=(0,), tile=tx)\n",
      "x=" + dtype + "[?]");
}

TEST(Arange, FloatStartAndStepIntoIntegersTruncate) {
  for (const char* dtype : {"int8", "int16", "int32", "int64"}) {
    TranspileResult r = arange_kernel(dtype);
    ASSERT_TRUE(r.ok) << dtype << ": " << r.diagnostics;
    // The call, not the comment that quotes the Python line.
    const size_t at = r.cu.find("= arange<");
    ASSERT_NE(at, std::string::npos) << r.cu;
    const std::string call = r.cu.substr(at, r.cu.find('\n', at) - at);
    EXPECT_TRUE(contains(call, "8, ") || contains(call, "8), ") || contains(call, "8}, ")) << call;
    EXPECT_TRUE(contains(call, "-1)") || contains(call, "-1})")) << call;
    EXPECT_FALSE(contains(call, ".")) << call;
  }
}

TEST(Arange, FloatStartAndStepKeepTheirFractions) {
  TranspileResult r = arange_kernel("float32");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "8.5f")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "-1.1")) << r.cu;
  for (const char* dtype : {"float16", "bfloat16", "float64"}) {
    TranspileResult h = arange_kernel(dtype);
    ASSERT_TRUE(h.ok) << dtype << ": " << h.diagnostics;
    if (!testing::have_nvcc()) continue;
    EXPECT_EQ(testing::nvcc_compile(h.cu, h.cuh, "k.cuh"), 0) << h.cu;
  }
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh"), 0) << r.cu;
}

// np.newaxis is None in an index (cuTile's test_new_axis_indexing[kernel_axes2, 3]).
TEST(NewAxis, NumpyNewaxisIndexesAsNone) {
  TranspileOptions options;
  options.signatures = {"x=float32[?, ?], y=float32[?, ?, ?, ?]"};
  options.header_name = "k.cuh";
  TranspileResult r = transpile("k.py",
                                "import numpy as np\nimport cuda.tile as ct\n\n\n@ct.kernel\n"
                                "def k(x, y):\n"
                                "    tx = ct.load(x, index=(0, 0), shape=(8, 8))\n"
                                "    ct.store(y, index=(0, 0, 0, 0), tile=tx[np.newaxis, np.newaxis, :, :])\n",
                                options);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.ir, "tile<f32, 1x1x8x8>")) << r.ir;
}

}  // namespace
}  // namespace tile2cu
