// A generated .cu includes the runtime headers its code uses (src/emit/runtime_includes.cpp),
// not the umbrella tile2cu.cuh: which names select which headers, and whole kernels (a vector
// add without reduce.cuh, a row sum with it, built with nvcc).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "emit/runtime_includes.hpp"
#include "nvcc_compile.hpp"
#include "text_match.hpp"
#include "tile2cu/tile2cu.hpp"

namespace tile2cu {
namespace {

bool has(const std::vector<std::string>& headers, const std::string& header) {
  for (const std::string& h : headers)
    if (h == header) return true;
  return false;
}

const std::vector<std::string> kCore = {"tile2cu/array.cuh",  "tile2cu/elementwise.cuh", "tile2cu/host.hpp",
                                        "tile2cu/layout.cuh", "tile2cu/memory.cuh",      "tile2cu/tile.cuh",
                                        "tile2cu/types.cuh"};

TEST(RuntimeIncludes, CoreAlwaysSortedOnce) {
  EXPECT_EQ(runtime_includes(""), kCore);
  EXPECT_EQ(runtime_includes("const auto t = load<L>(a, {0}); store(c, {0}, t + t);"), kCore);
  std::vector<std::string> with_reduce = runtime_includes("sum<Axes<1>, L>(t, smem); sum<Axes<0>, L>(t, smem);");
  EXPECT_TRUE(std::is_sorted(with_reduce.begin(), with_reduce.end()));
  EXPECT_EQ(std::count(with_reduce.begin(), with_reduce.end(), "tile2cu/reduce.cuh"), 1);
}

TEST(RuntimeIncludes, NamesSelectTheirHeaders) {
  EXPECT_TRUE(has(runtime_includes("const auto s = sum<Axes<1>, L>(t, smem);"), "tile2cu/reduce.cuh"));
  EXPECT_TRUE(has(runtime_includes("cumsum<Axes<0>, L>(t, smem)"), "tile2cu/scan.cuh"));
  EXPECT_TRUE(has(runtime_includes("atomic_add(a, idx, v)"), "tile2cu/atomic.cuh"));
  EXPECT_TRUE(has(runtime_includes("tile2cu::exp(x)"), "tile2cu/math.cuh"));
  // A nested namespace's name selects its header.
  EXPECT_TRUE(has(runtime_includes("using Loop = gemm::Loop<L>;"), "tile2cu/gemm_pipeline.cuh"));
  // A name declared in two headers (overloads) selects both: the same overload set as the umbrella.
  std::vector<std::string> truediv = runtime_includes("truediv(t, 2.0f)");
  EXPECT_TRUE(has(truediv, "tile2cu/divide.cuh"));
  EXPECT_TRUE(has(truediv, "tile2cu/elementwise.cuh"));
}

TEST(RuntimeIncludes, OperatorsSelectTheirHeaders) {
  // Tile / scalar is declared in divide.cuh alone.
  EXPECT_TRUE(has(runtime_includes("const auto y = x / 2.0f;"), "tile2cu/divide.cuh"));
  EXPECT_FALSE(has(runtime_includes("const auto y = x * 2.0f;"), "tile2cu/divide.cuh"));
}

TEST(RuntimeIncludes, CommentsStringsMembersAndOtherNamespacesSelectNothing) {
  // The Python source quoted in comments, a printf format, a member, another namespace's name,
  // a preprocessor line, a number's exponent.
  const std::string code =
      "  // s = ct.sum(x, axis=1) / 2\n"
      "  /* ct.cumsum(x) */\n"
      "  printf(\"sum %d\\n\", s.sum);\n"
      "  const auto m = std::exp(p->cumsum) + k::atomic_add;\n"
      "#line 12 \"reduce.py\"\n"
      "  const float e = 1.5e-3f;\n";
  EXPECT_EQ(runtime_includes(code), kCore);
}

const char* kVectorAdd =
    "import cuda.tile as ct\n"
    "\n"
    "\n"
    "@ct.kernel\n"
    "def vadd(a, b, c, TILE: ct.Constant[int]):\n"
    "    block = ct.bid(0)\n"
    "    a_tile = ct.load(a, index=(block,), shape=(TILE,))\n"
    "    b_tile = ct.load(b, index=(block,), shape=(TILE,))\n"
    "    ct.store(c, index=(block,), tile=a_tile + b_tile)\n";

const char* kRowSum =
    "import cuda.tile as ct\n"
    "\n"
    "\n"
    "@ct.kernel\n"
    "def row_sum(x, y, TN: ct.Constant[int]):\n"
    "    row = ct.bid(0)\n"
    "    t = ct.load(x, index=(row, 0), shape=(1, TN))\n"
    "    ct.store(y, index=(row,), tile=ct.sum(t, axis=1))\n";

TranspileResult transpile_one(const char* source, const std::string& sig) {
  TranspileOptions o;
  o.signatures = {sig};
  o.header_name = "k.cuh";
  return transpile("k.py", source, o);
}

// The includes of a .cu: one line each under the comment, after the file's own header; the host
// headers last.
TEST(RuntimeIncludes, VectorAddLeavesReductionsOut) {
  TranspileResult r = transpile_one(kVectorAdd, "a=float32[?], b=float32[?], c=float32[?], TILE=1024");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  // The file's own header and the runtime's host headers (.hpp) sit behind
  // !defined(__CUDACC_RTC__): NVRTC compiles the kernels only.
  std::string block =
      "#if !defined(__CUDACC_RTC__)\n#include \"k.cuh\"\n#endif\n\n"
      "// The parts of the runtime (tile2cu/tile2cu.cuh) that this file uses.\n";
  std::string host;
  for (const std::string& h : kCore) (h.ends_with(".hpp") ? host : block) += "#include <" + h + ">\n";
  block += "#if !defined(__CUDACC_RTC__)\n" + host + "#endif\n";
  EXPECT_TRUE(contains(r.cu, block + "\n// ---- ")) << r.cu;
  EXPECT_FALSE(contains(r.cu, "#include <tile2cu/tile2cu.cuh>")) << r.cu;
  EXPECT_FALSE(contains(r.cu, "reduce.cuh")) << r.cu;
  if (testing::have_nvcc()) EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_80"), 0) << r.cu;
}

TEST(RuntimeIncludes, ReductionIncludesReduce) {
  TranspileResult r = transpile_one(kRowSum, "x=float32[?, ?], y=float32[?], TN=256");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "#include <tile2cu/reduce.cuh>\n")) << r.cu;
  EXPECT_FALSE(contains(r.cu, "scan.cuh")) << r.cu;
  EXPECT_FALSE(contains(r.cu, "gemm_pipeline.cuh")) << r.cu;
  if (!testing::have_nvcc()) GTEST_SKIP() << "nvcc not installed";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_80"), 0) << r.cu;
}

}  // namespace
}  // namespace tile2cu
