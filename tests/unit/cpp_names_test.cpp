// The naming rule (src/emit/cpp_names.cpp, docs/naming.md): what it keeps, how it escapes,
// that no two names meet and no result is reserved; and the reproducers of issue 28, whose
// generated code nvcc rejected. tests/names/check_cpp_names.py builds thousands of names.
#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "emit/cpp_names.hpp"
#include "nvcc_compile.hpp"
#include "tile2cu/tile2cu.hpp"

namespace tile2cu {
namespace {

TEST(CppNames, FineNamesStay) {
  for (const char* n : {"x", "a_tile", "tiles", "bid", "x_2", "acc", "TILE", "BLOCK_SIZE", "happy", "π", "python"})
    EXPECT_EQ(cpp_name(n), n);
}

TEST(CppNames, ReservedNamesGetTheTag) {
  const std::map<std::string, std::string> expected = {
      {"int", "int_py"},          {"asm", "asm_py"},       {"xor", "xor_py"},         {"this", "this_py"},
      {"NULL", "NULL_py"},        {"NAN", "NAN_py"},       {"EOF", "EOF_py"},         {"errno", "errno_py"},
      {"blockIdx", "blockIdx_py"}, {"dim3", "dim3_py"},    {"int32_t", "int32_t_py"}, {"cuda", "cuda_py"},
      {"std", "std_py"},          {"load", "load_py"},     {"store", "store_py"},     {"Array", "Array_py"},
      {"stream", "stream_py"},    {"grid_x", "grid_x_py"}, {"smem", "smem_py"}};
  for (const auto& [python, cpp] : expected) EXPECT_EQ(cpp_name(python), cpp) << python;
}

// The runtime's names come from the include rule's table (runtime_names.inc, kept current by
// the ctest runtime_names_table), so names added to the runtime later are owned at once:
// block_lanes and sync_block (small tiles) once went through unrenamed.
TEST(CppNames, EveryRuntimeNameGetsTheTag) {
  for (const char* n : {"block_lanes", "sync_block", "kStoredDims", "gather", "detail", "BlockedLayout"})
    EXPECT_EQ(cpp_name(n), std::string(n) + "_py") << n;
}

TEST(CppNames, EmitterPatternsGetTheTag) {
  for (const char* n : {"a_data", "a_shape_0", "a_stride_12", "a_arg", "xs_words", "xs_size", "a_b_tma", "kThreads",
                        "kTilesWhole", "Layout_1024", "GemmLoop_64x64x32", "AttentionLoop_1x2x3"})
    EXPECT_EQ(cpp_name(n), std::string(n) + "_py") << n;
  // Near misses stay.
  for (const char* n : {"a_shape", "x_stride_n", "k", "kernels", "Layout", "metadata"}) EXPECT_EQ(cpp_name(n), n);
}

TEST(CppNames, UnderscoresAreCounted) {
  EXPECT_EQ(cpp_name("_x"), "x_py1x0");
  EXPECT_EQ(cpp_name("x_"), "x_py0x1");
  EXPECT_EQ(cpp_name("__init__"), "init_py2x2");
  EXPECT_EQ(cpp_name("a__b"), "a_b_py0x2x0");
  EXPECT_EQ(cpp_name("_1"), "n_1_py1x0");
  EXPECT_EQ(cpp_name("_"), "n_py1");
  EXPECT_EQ(cpp_name("_X"), "X_py1x0");
}

TEST(CppNames, EscapedShapesAreEscapedAgain) {
  EXPECT_EQ(cpp_name("int_py"), "int_py_py");
  EXPECT_EQ(cpp_name("x_py1x0"), "x_py1x0_py");
  EXPECT_EQ(cpp_name("n_py1"), "n_py1_py");
}

// Many names near every boundary of the rule: no two get the same C++ name, and every C++
// name is free (no reserved underscore, not reserved, not the emitter's).
TEST(CppNames, InjectiveAndFree) {
  std::vector<std::string> names = {"int", "NULL", "a", "a_data", "kThreads", "Layout_16", "x", "_", "__", "___"};
  for (const char* stem : {"int", "x", "a_data", "kThreads", "n", "n_1", "py", "1", "x_py", "x_py1x0", "Layout_2"})
    for (const char* before : {"", "_", "__", "n_"})
      for (const char* after : {"", "_", "__", "_py", "_py1x0", "_py0x1", "_2", "_data", "_shape_0", "x"}) {
        std::string n = std::string(before) + stem + after;
        if (!n.empty() && !std::isdigit(static_cast<unsigned char>(n[0]))) names.push_back(n);
      }
  std::map<std::string, std::string> seen;
  for (const std::string& n : names) {
    std::string c = cpp_name(n);
    auto [it, fresh] = seen.emplace(c, n);
    EXPECT_TRUE(fresh || it->second == n) << n << " and " << it->second << " both give " << c;
    EXPECT_TRUE(cpp_name_is_free(c)) << n << " -> " << c;
  }
}

TEST(CppNames, ReservedListHasNoEscapedName) {
  for (const char* n : {"int_py", "NULL_py", "x_py1x0", "n_py1"}) EXPECT_FALSE(is_reserved_cpp_name(n)) << n;
  EXPECT_TRUE(is_reserved_cpp_name("and"));
  EXPECT_TRUE(is_reserved_cpp_name("assert"));
  EXPECT_TRUE(is_reserved_cpp_name("threadIdx"));
  EXPECT_TRUE(is_reserved_cpp_name("cdiv"));
}

// ---- the reproducers of issue 28, end to end ---------------------------------------------------

TranspileResult transpile_kernel(const std::string& kernel, const std::vector<std::string>& sigs) {
  TranspileOptions o;
  o.signatures = sigs;
  o.header_name = "k.cuh";
  TranspileResult r = transpile("k.py", "import cuda.tile as ct\n\n" + kernel, o);
  EXPECT_TRUE(r.ok) << r.diagnostics;
  return r;
}

const char* kIssueKernel = R"(@ct.kernel
def asm(a, a_data, NULL, TILE: ct.Constant[int]):
    int = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    kThreads = int + NULL
    ct.store(a_data, index=(ct.bid(0),), tile=kThreads)
)";

TEST(CppNames, IssueReproducersAreSpelledByTheRule) {
  TranspileResult r = transpile_kernel(kIssueKernel, {"int = asm(a=float32[?], a_data=float32[?], NULL=float32, TILE=128)"});
  for (const char* text : {"namespace int_py {", "void __launch_bounds__(kCtaThreads) asm_py(",
                           "float* a_data, int32_t a_shape_0", "float* a_data_py_data, int32_t a_data_py_shape_0",
                           "float NULL_py", "const auto int_py = load<Layout_128>(a, ",
                           "const auto kThreads_py = int_py + NULL_py;", "cudaError_t launch_int_py(",
                           "extern \"C\" int tile2cu_int_py("})
    EXPECT_NE(r.cu.find(text), std::string::npos) << text << "\n" << r.cu;
}

TEST(CppNames, IssueReproducersBuild) {
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  TranspileResult r = transpile_kernel(kIssueKernel, {"int = asm(a=float32[?], a_data=float32[?], NULL=float32, TILE=128)",
                                                      "cuda = asm(a=float16[?], a_data=float16[?], NULL=float16, TILE=64)"});
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_90a"), 0) << r.cu;
}

}  // namespace
}  // namespace tile2cu
