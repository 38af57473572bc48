// Tuples and frozen dataclass instances carried through loops and run-time ifs: their tiles
// and scalars become loop-carried values / if results, one per item, and the record is rebuilt
// after; its structure (length, class, compile-time items) must be the same on every path, as
// cuTile requires a variable's type not to depend on the path taken.
#include "sema_test_util.hpp"
#include "tile2cu/tile2cu.hpp"
#include "text_match.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::ops_of_kind;

const char* kSig = "x=float32[?], y=float32[?], TILE=16";

std::string kernel(const std::string& body, const std::string& before = "") {
  return "from dataclasses import dataclass, replace\n"
         "@dataclass(frozen=True)\n"
         "class Acc:\n"
         "    total: float\n"
         "    count: int\n"
         "@dataclass(frozen=True)\n"
         "class Other:\n"
         "    total: float\n" +
         before +
         "@ct.kernel\n"
         "def k(x, y, TILE: ct.Constant[int]):\n"
         "    bid = ct.bid(0)\n"
         "    t = ct.load(x, index=(bid,), shape=(TILE,))\n" +
         body;
}

TranspileResult transpile_kernel(const std::string& source) {
  TranspileOptions o;
  o.signatures = {kSig};
  o.header_name = "k.cuh";
  return transpile("k.py", "import cuda.tile as ct\n" + source, o);
}

TEST(CarriedRecords, TupleThroughAForLoopIsCarriedItemByItem) {
  const std::string source = kernel(
      "    state = (ct.max(t), 0.0)\n"
      "    for j in range(4):\n"
      "        m, l = state\n"
      "        m_new = ct.maximum(m, ct.max(t * j))\n"
      "        state = (m_new, l * ct.exp(m - m_new) + 1.0)\n"
      "    m, l = state\n"
      "    ct.store(y, index=(bid,), tile=(t - m) / l)\n");
  ir::Function fn = compile_kernel(source, kSig);
  const ir::Op* loop = ops_of_kind(fn, ir::OpKind::For).at(0);
  ASSERT_EQ(loop->results.size(), 2u);          // m and l, the tuple's two scalars
  ASSERT_EQ(loop->regions[0].args.size(), 3u);  // the induction variable and the two
  EXPECT_EQ(fn.values[loop->results[0]].name, "state_0");
  EXPECT_EQ(fn.values[loop->results[1]].name, "state_1");
  EXPECT_TRUE(fn.type(loop->results[1]).is_scalar());
  TranspileResult r = transpile_kernel(source);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.ir, "iter(")) << r.ir;
  EXPECT_TRUE(contains(r.cu, "state_1")) << r.cu;
}

TEST(CarriedRecords, ConstantItemsStayConstantsAfterAForLoop) {
  // A constant item that every path leaves alone is that constant after the loop (cuTile's
  // constant propagation); compile-time items (dtypes, None, arrays) are part of the structure.
  ir::Function fn = compile_kernel(
      kernel("    spec = (ct.sum(t), TILE, ct.float32, None, y)\n"
             "    for j in range(4):\n"
             "        spec = (spec[0] * 0.5, TILE, ct.float32, None, y)\n"
             "    ct.static_assert(spec[1] == TILE)\n"
             "    out = ct.full((spec[1],), spec[0], dtype=spec[2])\n"
             "    ct.store(spec[4], index=(bid,), tile=out)\n"),
      kSig);
  const ir::Op* loop = ops_of_kind(fn, ir::OpKind::For).at(0);
  EXPECT_EQ(loop->results.size(), 2u);  // the sum, and TILE as a (dead) int32
  // After a while loop nothing is constant: cuTile leaves it by the condition's break.
  EXPECT_KERNEL_ERROR(kernel("    spec = (ct.sum(t), TILE)\n"
                             "    while spec[0] > 1.0:\n"
                             "        spec = (spec[0] * 0.5, TILE)\n"
                             "    ct.static_assert(spec[1] == TILE)\n"),
                      kSig, ErrorKind::Type, "condition must be a compile-time constant");
}

TEST(CarriedRecords, TupleThroughAWhileLoopWithBreakAndContinue) {
  ir::Function fn = compile_kernel(
      kernel("    pair = (t, 0)\n"
             "    while pair[1] < 8:\n"
             "        a, n = pair\n"
             "        if n == bid:\n"
             "            pair = (a * 2.0, n + 2)\n"
             "            continue\n"
             "        if n > 6:\n"
             "            break\n"
             "        pair = (a + 1.0, n + 1)\n"
             "    ct.store(y, index=(bid,), tile=pair[0] + pair[1])\n"),
      kSig);
  const ir::Op* loop = ops_of_kind(fn, ir::OpKind::While).at(0);
  EXPECT_EQ(loop->results.size(), 2u);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Continue).at(0)->operands.size(), 2u);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Break).at(0)->operands.size(), 2u);
}

TEST(CarriedRecords, TupleOutOfARunTimeIfYieldsOnlyTheItemsThatDiffer) {
  ir::Function fn = compile_kernel(
      kernel("    pair = (t, 1, ct.float32)\n"
             "    if bid > 0:\n"
             "        pair = (t * 2.0, 1, ct.float32)\n"
             "    else:\n"
             "        pair = (t + 1.0, 1, ct.float32)\n"
             "    ct.static_assert(pair[1] == 1)\n"
             "    ct.store(y, index=(bid,), tile=pair[0].astype(pair[2]))\n"),
      kSig);
  const ir::Op* branch = ops_of_kind(fn, ir::OpKind::If).at(0);
  ASSERT_EQ(branch->results.size(), 1u);
  EXPECT_EQ(fn.values[branch->results[0]].name, "pair_0");
  // A tuple assigned only on the path that falls through leaves its region as results too.
  fn = compile_kernel(kernel("    acc = (t, 0)\n"
                             "    for j in range(4):\n"
                             "        if j > bid:\n"
                             "            acc = (acc[0] * 2.0, acc[1] + j)\n"
                             "        else:\n"
                             "            break\n"
                             "    ct.store(y, index=(bid,), tile=acc[0] + acc[1])\n"),
                      kSig);
  branch = ops_of_kind(fn, ir::OpKind::If).at(0);
  EXPECT_EQ(branch->results.size(), 2u);
}

TEST(CarriedRecords, DataclassInstancesThroughLoopsAndIfs) {
  const std::string source = kernel(
      "    acc = Acc(ct.sum(t), 0)\n"
      "    for j in range(4):\n"
      "        acc = Acc(acc.total * 0.5, acc.count + 1)\n"
      "        if acc.total > 100.0:\n"
      "            acc = replace(acc, count=acc.count * 2)\n"
      "    ct.store(y, index=(bid,), tile=t * acc.total + acc.count)\n");
  ir::Function fn = compile_kernel(source, kSig);
  const ir::Op* loop = ops_of_kind(fn, ir::OpKind::For).at(0);
  ASSERT_EQ(loop->results.size(), 2u);
  EXPECT_EQ(fn.values[loop->results[0]].name, "acc_total");
  EXPECT_EQ(fn.values[loop->results[1]].name, "acc_count");
  const ir::Op* branch = ops_of_kind(fn, ir::OpKind::If).at(0);
  EXPECT_EQ(branch->results.size(), 1u);  // only count differs between the branches
  TranspileResult r = transpile_kernel(source);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "acc_total")) << r.cu;
}

TEST(CarriedRecords, HelpersReturnRecordsFromBothBranches) {
  ir::Function fn = compile_kernel(
      kernel("    lo, hi = order(ct.sum(t), ct.max(t))\n"
             "    ct.store(y, index=(bid,), tile=t * lo + hi)\n",
             "def order(a, b):\n"
             "    if a < b:\n"
             "        return (a, b)\n"
             "    else:\n"
             "        return (b, a)\n"),
      kSig);
  const ir::Op* branch = ops_of_kind(fn, ir::OpKind::If).at(0);
  EXPECT_EQ(branch->results.size(), 2u);
  EXPECT_KERNEL_ERROR(kernel("    p = pick(ct.sum(t))\n",
                             "def pick(a):\n"
                             "    if a > 0.0:\n"
                             "        return (a, a)\n"
                             "    else:\n"
                             "        return (a,)\n"),
                      kSig, ErrorKind::Type, "Type of return value depends on path taken");
}

TEST(CarriedRecords, TheStructureMustNotDependOnThePath) {
  EXPECT_KERNEL_ERROR(kernel("    state = (ct.sum(t), 0.0)\n"
                             "    for j in range(4):\n"
                             "        state = (state[0], state[1], 1.0)\n"),
                      kSig, ErrorKind::Type, "Variable state has changed its type inside a loop: Tuple[");
  EXPECT_KERNEL_ERROR(kernel("    state = (ct.sum(t), 0.0)\n"
                             "    for j in range(4):\n"
                             "        state = (t, state[1])\n"),
                      kSig, ErrorKind::Type, "Variable state has changed its type inside a loop");
  EXPECT_KERNEL_ERROR(kernel("    acc = Acc(ct.sum(t), 0)\n"
                             "    for j in range(4):\n"
                             "        acc = acc.total * 2.0\n"),
                      kSig, ErrorKind::Type, "Variable acc has changed its type inside a loop: Acc[");
  EXPECT_KERNEL_ERROR(kernel("    acc = Acc(ct.sum(t), 0)\n"
                             "    for j in range(4):\n"
                             "        acc = Other(acc.total)\n"),
                      kSig, ErrorKind::Type, "vs Other[total: float32 scalar]");
  EXPECT_KERNEL_ERROR(kernel("    spec = (ct.sum(t), ct.float32)\n"
                             "    for j in range(4):\n"
                             "        if j > bid:\n"
                             "            break\n"
                             "        spec = (spec[0], ct.float16)\n"),
                      kSig, ErrorKind::Type, "Variable spec has changed its type inside a loop");
  // Out of a run-time if the record is unusable, as a scalar of two types is.
  EXPECT_KERNEL_ERROR(kernel("    pair = (t, 1)\n"
                             "    if bid > 0:\n"
                             "        pair = (t, 1, 2)\n"
                             "    ct.store(y, index=(bid,), tile=pair[0])\n"),
                      kSig, ErrorKind::Type, "Type of `pair` depends on path taken: Tuple[");
  EXPECT_KERNEL_ERROR(kernel("    acc = Acc(ct.sum(t), 0)\n"
                             "    if bid > 0:\n"
                             "        acc = Other(1.0)\n"
                             "    ct.store(y, index=(bid,), tile=t * acc.total)\n"),
                      kSig, ErrorKind::Type, "Type of `acc` depends on path taken");
}

}  // namespace
}  // namespace tile2cu
