// Early returns from helpers: a helper that returns in one branch of a run-time if and runs
// the rest of its body on the other path. The rest of the helper is lowered into the branch
// that falls through, so the if yields the return value on both paths; the value's type must
// not depend on the path taken (cuTile: "Type of return value depends on path taken").
#include <chrono>

#include "sema_test_util.hpp"
#include "nvcc_compile.hpp"
#include "tile2cu/tile2cu.hpp"
#include "text_match.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::ops_of_kind;

const char* kSig = "x=float32[?], y=float32[?], s=int32, TILE=16";

std::string kernel(const std::string& helpers, const std::string& body) {
  return "import cuda.tile as ct\n" + helpers +
         "@ct.kernel\n"
         "def k(x, y, s, TILE: ct.Constant[int]):\n"
         "    bid = ct.bid(0)\n"
         "    t = ct.load(x, index=(bid,), shape=(TILE,))\n" +
         body;
}

TranspileResult transpile_kernel(const std::string& source) {
  TranspileOptions o;
  o.signatures = {kSig};
  o.header_name = "k.cuh";
  return transpile("k.py", source, o);
}

#define EXPECT_COMPILE_ERROR(source, sig, kind_, substring)                         \
  do {                                                                              \
    try {                                                                           \
      compile_kernel(source, sig);                                                  \
      ADD_FAILURE() << "accepted";                                                  \
    } catch (const CompileError& e_) {                                              \
      EXPECT_EQ(e_.kind(), kind_) << e_.message();                                  \
      EXPECT_NE(e_.message().find(substring), std::string::npos) << e_.message();   \
    }                                                                               \
  } while (0)

const std::string kEarly =
    "def scale(v, s):\n"
    "    if s > 0:\n"
    "        return v * 2.0\n"
    "    w = v + 1.0\n"
    "    return w * 3.0\n";

TEST(HelperReturn, RestOfHelperRunsInTheOtherBranch) {
  const std::string source = kernel(kEarly, "    ct.store(y, index=(bid,), tile=scale(t, s))\n");
  ir::Function fn = compile_kernel(source, kSig);
  auto ifs = ops_of_kind(fn, ir::OpKind::If);
  ASSERT_EQ(ifs.size(), 1u);
  const ir::Op* op = ifs[0];
  ASSERT_EQ(op->results.size(), 1u);  // the return value
  EXPECT_EQ(fn.values[op->results[0]].name, "scale");
  // Both branches end in a yield of a tile; the else branch holds the rest of the helper.
  ASSERT_FALSE(op->regions[0].ops.empty());
  ASSERT_FALSE(op->regions[1].ops.empty());
  EXPECT_EQ(op->regions[0].ops.back().kind, ir::OpKind::Yield);
  EXPECT_EQ(op->regions[1].ops.back().kind, ir::OpKind::Yield);
  EXPECT_GT(op->regions[1].ops.size(), op->regions[0].ops.size());
  TranspileResult r = transpile_kernel(source);
  EXPECT_TRUE(contains(r.cu, "if (")) << r.cu;
}

TEST(HelperReturn, NestedEarlyReturnsAndTuples) {
  const std::string helpers =
      "def pair(v, s):\n"
      "    if s > 0:\n"
      "        return v, s\n"
      "    return v + 1.0, s * 2\n"
      "def clamp(v, s):\n"
      "    if s > 0:\n"
      "        w = v * 2.0\n"
      "        if s > 4:\n"
      "            return w\n"
      "        v = w - 1.0\n"
      "    return v\n";
  const std::string source = kernel(helpers,
                                    "    u, n = pair(t, s)\n"
                                    "    ct.store(y, index=(bid,), tile=clamp(u, n))\n");
  ir::Function fn = compile_kernel(source, kSig);
  auto ifs = ops_of_kind(fn, ir::OpKind::If);
  ASSERT_EQ(ifs.size(), 3u);
  EXPECT_EQ(ifs[0]->results.size(), 2u);  // pair: the tile and the scalar
  TranspileResult r = transpile_kernel(source);
  EXPECT_FALSE(r.cu.empty());
}

TEST(HelperReturn, ConstantConditionsFoldAsBefore) {
  const std::string helpers =
      "def f(v, flag):\n"
      "    if flag:\n"
      "        return v * 2.0\n"
      "    return v\n";
  ir::Function fn = compile_kernel(kernel(helpers, "    ct.store(y, index=(bid,), tile=f(t, True))\n"), kSig);
  EXPECT_TRUE(ops_of_kind(fn, ir::OpKind::If).empty());
}

TEST(HelperReturn, ReturnTypeMustNotDependOnThePath) {
  const std::string none_path =
      "def f(v, s):\n"
      "    if s > 0:\n"
      "        return v\n"
      "    v = v + 1.0\n";
  EXPECT_COMPILE_ERROR(kernel(none_path, "    ct.store(y, index=(bid,), tile=f(t, s))\n"), kSig, ErrorKind::Type,
                       "Type of return value depends on path taken: Tile[float32,(16,)] vs None");
  const std::string dtypes =
      "def f(v, s):\n"
      "    if s > 0:\n"
      "        return v\n"
      "    return ct.astype(v, ct.int32)\n";
  EXPECT_COMPILE_ERROR(kernel(dtypes, "    ct.store(y, index=(bid,), tile=ct.astype(f(t, s), ct.float32))\n"), kSig,
                       ErrorKind::Type, "Type of return value depends on path taken");
}

TEST(HelperReturn, CopiesOfTheRestAreCapped) {
  // Each level returns in a nested branch on both sides of an if, so the rest of the helper is
  // lowered twice per level: 2^24 copies unless capped. The cap stops it with a clear error.
  std::string helper = "def f(v, s):\n";
  for (int level = 0; level < 24; ++level)
    helper += "    if s > " + std::to_string(level) + ":\n"
              "        if s > 100:\n"
              "            return v\n"
              "    else:\n"
              "        if s < -100:\n"
              "            return v\n"
              "    v = v + 1.0\n";
  helper += "    return v\n";
  const auto start = std::chrono::steady_clock::now();
  // The file's lowering budget (issue 28: 100,000 IR operations) now stops it first, at the
  // same place and as early.
  EXPECT_COMPILE_ERROR(kernel(helper, "    ct.store(y, index=(bid,), tile=f(t, s))\n"), kSig,
                       ErrorKind::UnsupportedFeature, "needs more than 100000 IR operations");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

TEST(HelperReturn, StillRejectedInsideLoops) {
  const std::string in_loop =
      "def f(v, s):\n"
      "    for i in range(s):\n"
      "        if i > 2:\n"
      "            return v\n"
      "    return v * 2.0\n";
  EXPECT_COMPILE_ERROR(kernel(in_loop, "    ct.store(y, index=(bid,), tile=f(t, s))\n"), kSig,
                       ErrorKind::Syntax, "Returning from a for loop is not supported");
}

// cuTile's test_helper_function.py::test_early_return_inside_while_loop: a helper may return
// from inside a while loop; the loop is left with the value, which the helper then returns.
TEST(HelperReturn, ReturnInsideAWhileLoop) {
  const std::string grows =
      "def first_past(limit):\n"
      "    lo, hi = 1, 2\n"
      "    while True:\n"
      "        lo, hi = hi, lo + hi * 2\n"
      "        if hi > limit:\n"
      "            return hi\n"
      "def nested(limit):\n"
      "    n = 0\n"
      "    while True:\n"
      "        n += 1\n"
      "        while True:\n"
      "            if n > limit:\n"
      "                return n * 10\n"
      "            break\n"
      "        print('again')\n";
  ir::Function fn = compile_kernel(kernel(grows, "    print(first_past(s))\n    print(nested(s))\n"), kSig);
  std::vector<const ir::Op*> loops = ops_of_kind(fn, ir::OpKind::While);
  ASSERT_EQ(loops.size(), 3u) << ir::print_function(fn);
  std::vector<const ir::Op*> prints = ops_of_kind(fn, ir::OpKind::Print);
  ASSERT_EQ(prints.size(), 3u);
  // What the first helper returns is what its loop's break passed out.
  const auto& results = loops[0]->results;
  ASSERT_FALSE(prints[0]->operands.empty());
  EXPECT_NE(std::find(results.begin(), results.end(), prints[0]->operands[0]), results.end())
      << ir::print_function(fn);

  TranspileResult r = transpile_kernel(kernel(grows, "    print(first_past(s))\n    print(nested(s))\n"));
  if (testing::have_nvcc()) EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh"), 0) << r.cu;

  // A loop also left by its condition: the rest of the helper runs where it did not return.
  const std::string conditional =
      "def f(limit):\n"
      "    i = 0\n"
      "    while i < 100:\n"
      "        i += 1\n"
      "        if i > limit:\n"
      "            return i\n"
      "    print('ran out')\n"
      "    return 0\n";
  fn = compile_kernel(kernel(conditional, "    print(f(s))\n"), kSig);
  ASSERT_EQ(ops_of_kind(fn, ir::OpKind::If).size(), 2u) << ir::print_function(fn);  // in the loop, after it
  const ir::Op* after = ops_of_kind(fn, ir::OpKind::If).back();
  std::vector<const ir::Op*> rest;
  testing::collect_ops(after->regions[1], ir::OpKind::Print, rest);
  EXPECT_EQ(rest.size(), 1u) << ir::print_function(fn);

  // Returns of two types leave no one value to carry.
  const std::string two_types =
      "def f(limit):\n"
      "    i = 0\n"
      "    while True:\n"
      "        i += 1\n"
      "        if i > limit:\n"
      "            return i\n"
      "        if i > 50:\n"
      "            return 1.5\n";
  EXPECT_COMPILE_ERROR(kernel(two_types, "    print(f(s))\n"), kSig, ErrorKind::UnsupportedFeature,
                       "returns values of different types is not supported yet");
}

TEST(HelperReturn, GeneratedCudaCompilesWithNvcc) {
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  TranspileResult r = transpile_kernel(kernel(kEarly, "    ct.store(y, index=(bid,), tile=scale(t, s))\n"));
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh"), 0) << r.cu;
}

}  // namespace
}  // namespace tile2cu
