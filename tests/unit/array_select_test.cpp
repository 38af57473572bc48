// A run-time choice between arrays (cuTile's test_alias.py, test_control_flow.py::
// test_if_else_array_result, test_typeinfer.py::test_array_inferred_strides_unify_in_control_flow):
// an array variable the paths of an if bind to different arrays. The if yields the path's index
// and an ArraySelect entry picks the array; its facts are the ones every candidate has.
#include "ir/printer.hpp"
#include "nvcc_compile.hpp"
#include "sema_test_util.hpp"
#include "transpile_one.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::ops_of_kind;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The block's flag picks which array to fill.
const char* kChooseByFlag =
    "def k(src, dst, flag: int, N: ct.Constant[int]):\n"
    "    if flag:\n"
    "        out = dst\n"
    "    else:\n"
    "        out = src\n"
    "    ct.store(out, index=(0,), tile=ct.full((N,), 5, dtype=src.dtype))\n";
const char* kChooseByFlagSig = "src=float32[?], dst=float32[?], flag=int32, N=256";

TEST(ArraySelect, AnIfChoosesBetweenTwoArrays) {
  ir::Function fn = compile_kernel(std::string("@ct.kernel\n") + kChooseByFlag, kChooseByFlagSig);
  auto selects = ops_of_kind(fn, ir::OpKind::ArraySelect);
  ASSERT_EQ(selects.size(), 1u);
  const ir::ArrayParam& alias = fn.arrays[selects[0]->param];
  EXPECT_EQ(alias.name, "out");  // named after the Python variable
  ASSERT_EQ(alias.select_of.size(), 2u);
  EXPECT_EQ(fn.arrays[alias.select_of[0]].name, "dst");  // the if path first
  EXPECT_EQ(fn.arrays[alias.select_of[1]].name, "src");
  EXPECT_EQ(fn.type(selects[0]->operands[0]), (ir::TileType{DType::Int32, {}}));
  // The store may write either array: neither is const in the launcher.
  EXPECT_TRUE(fn.arrays[alias.select_of[0]].written);
  EXPECT_TRUE(fn.arrays[alias.select_of[1]].written);
  auto stores = ops_of_kind(fn, ir::OpKind::Store);
  ASSERT_EQ(stores.size(), 1u);
  EXPECT_EQ(stores[0]->param, selects[0]->param);
}

TEST(ArraySelect, FactsAreTheOnesEveryCandidateHas) {
  // test_array_inferred_strides_unify_in_control_flow: x row-major, y its transpose.
  ir::Function fn = compile_kernel(
      "@ct.kernel\n"
      "def k(x, y, out):\n"
      "    if ct.bid(0) == 0:\n"
      "        a = x\n"
      "    else:\n"
      "        a = y\n"
      "    ct.store(out, (0, 0), ct.load(a, (0, 0), shape=(4, 4)))\n",
      "x=float32[4, 4] strides(4, 1) align16 contiguous, y=float32[4, ?] strides(1, 4) align16, out=float32[4, 4]");
  auto selects = ops_of_kind(fn, ir::OpKind::ArraySelect);
  ASSERT_EQ(selects.size(), 1u);
  const ir::ArrayParam& a = fn.arrays[selects[0]->param];
  EXPECT_EQ(a.static_dims[0], 4);                 // both have 4 rows
  EXPECT_FALSE(a.static_dims[1].has_value());     // y's columns are not static
  ASSERT_EQ(a.static_strides.size(), 2u);
  EXPECT_FALSE(a.static_strides[0].has_value());  // 4 vs 1
  EXPECT_FALSE(a.static_strides[1].has_value());  // 1 vs 4
  EXPECT_TRUE(a.aligned16);
  EXPECT_FALSE(a.contiguous);                     // y is not
  EXPECT_FALSE(fn.arrays[a.select_of[0]].written);  // only loaded from
}

TEST(ArraySelect, ArraysOfTwoDtypesOrRanksCannotMeet) {
  const char* body =
      "@ct.kernel\n"
      "def k(x, y):\n"
      "    if ct.bid(0) == 0:\n"
      "        a = x\n"
      "    else:\n"
      "        a = y\n"
      "    ct.store(a, (0,), ct.zeros((4,), dtype=a.dtype))\n";
  EXPECT_KERNEL_ERROR(body, "x=float32[?], y=int32[?]", ErrorKind::Type,
                      "Type of `a` depends on path taken: Array[int32,1-d] (the else path) vs. Array[float32,1-d] "
                      "(the if path)");
  EXPECT_KERNEL_ERROR(body, "x=float32[?], y=float32[?, ?]", ErrorKind::Type, "Type of `a` depends on path taken");
}

TEST(ArraySelect, EmitsAConditionalOverTheArraysAndBuilds) {
  TranspileResult r = transpile_one(kChooseByFlag, kChooseByFlagSig);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "const auto out = out_path == 0 ? dst : src;")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "store(out, {0}")) << r.cu;
  // Neither candidate is declared const: the launcher passes both writable.
  EXPECT_TRUE(contains(r.cuh + r.cu, "tile2cu::ArrayView<float, 1> src")) << r.cuh;
  EXPECT_TRUE(contains(r.cuh + r.cu, "tile2cu::ArrayView<float, 1> dst")) << r.cuh;
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh"), 0) << r.cu;
}

// cuTile's test_if_else_array_result: the block picks its array, then stores through it.
TEST(ArraySelect, ShapesOfTheChoiceAreReadAtRunTime) {
  TranspileResult r = transpile_one(
      "def k(x, y):\n"
      "    if ct.bid(0) == 0:\n"
      "        a = x\n"
      "    else:\n"
      "        a = y\n"
      "    tile = ct.full((1,), ct.bid(0) + a.shape[0], dtype=x.dtype)\n"
      "    ct.store(a, index=(0,), tile=tile)\n",
      "x=int32[?], y=int32[8]");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "a.shape[0]")) << r.cu;  // not y's static 8
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh"), 0) << r.cu;
}

// A loop that rebinds an array carries the choice as an int32 (named after the variable: the
// first version named it "<array target>", which is no C++ name, and nvcc refused the kernel).
TEST(ArraySelect, LoopsCarryTheChoiceAndBuild) {
  for (const char* body : {
           "def k(a, b, steps: int, T: ct.Constant[int]):\n"
           "    target = a\n"
           "    for k in range(steps):\n"
           "        target = b\n"
           "    ct.store(target, index=(0,), tile=ct.full((T,), 7, dtype=a.dtype))\n",
           "def k(a, b, steps: int, T: ct.Constant[int]):\n"
           "    target = a\n"
           "    k = 0\n"
           "    while k < steps:\n"
           "        target = b\n"
           "        k += 1\n"
           "    ct.store(target, index=(0,), tile=ct.full((T,), 7, dtype=a.dtype))\n"}) {
    TranspileResult r = transpile_one(body, "a=float32[?], b=float32[?], steps=int32, T=256");
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_TRUE(contains(r.cu, "auto target_path = 0;")) << r.cu;
    EXPECT_TRUE(contains(r.cu, "target_path = 1;")) << r.cu;
    EXPECT_TRUE(contains(r.cu, "const auto target = target_path == 0 ? a : b;")) << r.cu;
    if (!testing::have_nvcc()) continue;
    EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh"), 0) << r.cu;
  }
}

// An array chosen inside a branch (here by a loop) is declared in that branch's C++ block, so an
// if cannot choose it afterwards: a located error, not C++ that does not build (cuTile's
// test_alias[nested_alias] failed in NVRTC with "identifier is undefined").
TEST(ArraySelect, AChoiceMadeInsideABranchIsRefusedAfterIt) {
  EXPECT_KERNEL_ERROR(
      "@ct.kernel\n"
      "def k(a, b, steps: int, T: ct.Constant[int]):\n"
      "    target = a\n"
      "    if steps < 50:\n"
      "        for j in range(steps):\n"
      "            target = b\n"
      "    ct.store(target, index=(0,), tile=ct.full((T,), 7, dtype=a.dtype))\n",
      "a=float32[?], b=float32[?], steps=int32, T=256", ErrorKind::Type,
      "names an array chosen or made inside a branch of the if");
}

}  // namespace
}  // namespace tile2cu
