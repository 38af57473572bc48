// hoist_loop_invariants: exchanges of tiles that do not change inside a loop move in front of it.
#include <gtest/gtest.h>

#include "ir/passes/loop_invariants.hpp"
#include "sema_test_util.hpp"
#include "text_match.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;

std::string hoisted_ir(const std::string& body, const std::string& sig) {
  ir::Function fn = compile_kernel(body, sig);
  ir::hoist_loop_invariants(fn);
  ir::verify(fn);
  return ir::print_function(fn);
}

// The text before the first loop of the printed function.
std::string before_loop(const std::string& ir) { return ir.substr(0, ir.find(" for ")); }

const char* kSig = "x=float32[?, ?], y=float32[?, ?]";

TEST(LoopInvariants, BroadcastOfATileFromBeforeTheLoopMovesOut) {
  std::string ir = hoisted_ir(R"(
@ct.kernel
def k(x, y):
    m = ct.sum(ct.load(x, index=(0, 0), shape=(4, 16)), axis=0, keepdims=True)
    for i in range(4):
        t = ct.load(x, index=(i, 0), shape=(4, 16))
        ct.store(y, index=(i, 0), tile=t - m)
)", kSig);
  EXPECT_TRUE(contains(before_loop(ir), ".m_4x16 = broadcast %3.m")) << ir;  // named after its operand
  EXPECT_TRUE(contains(ir, "// hoisted out of the loop below")) << ir;
  EXPECT_TRUE(contains(ir.substr(ir.find(" for ")), "binary sub")) << ir;  // reads t: stays
}

TEST(LoopInvariants, BroadcastOfATileComputedInTheLoopStays) {
  std::string ir = hoisted_ir(R"(
@ct.kernel
def k(x, y):
    for i in range(4):
        t = ct.load(x, index=(i, 0), shape=(4, 16))
        ct.store(y, index=(i, 0), tile=t - ct.sum(t, axis=0, keepdims=True))
)", kSig);
  EXPECT_FALSE(contains(ir, "hoisted")) << ir;
  EXPECT_TRUE(contains(ir.substr(ir.find(" for ")), "broadcast")) << ir;
}

TEST(LoopInvariants, InvariantArithmeticMovesOnlyWhenAnExchangeReadsIt) {
  std::string ir = hoisted_ir(R"(
@ct.kernel
def k(x, y):
    m = ct.sum(ct.load(x, index=(0, 0), shape=(4, 16)), axis=0, keepdims=True)
    n = x.shape[0]
    for i in range(4):
        t = ct.load(x, index=(i, 0), shape=(4, 16))
        ct.store(y, index=(i, 0), tile=t - m * 2.0 + (n + 1))
)", kSig);
  const std::string outside = before_loop(ir), inside = ir.substr(ir.find(" for "));
  EXPECT_TRUE(contains(outside, "binary mul")) << ir;  // m * 2.0 feeds the broadcast
  EXPECT_EQ(count(outside, "hoisted"), 4) << ir;  // 2.0, its splat, the product, the broadcast
  EXPECT_TRUE(contains(inside, "binary add")) << ir;  // n + 1 is invariant but left to nvcc
}

TEST(LoopInvariants, AnExchangeInvariantInNestedLoopsLeavesBoth) {
  std::string ir = hoisted_ir(R"(
@ct.kernel
def k(x, y):
    m = ct.sum(ct.load(x, index=(0, 0), shape=(4, 16)), axis=0, keepdims=True)
    for i in range(4):
        for j in range(2):
            t = ct.load(x, index=(i, j), shape=(4, 16))
            ct.store(y, index=(i, j), tile=t - m)
)", kSig);
  EXPECT_TRUE(contains(before_loop(ir), "broadcast %")) << ir;
}

TEST(LoopInvariants, AWhileLoopBodyToo) {
  std::string ir = hoisted_ir(R"(
@ct.kernel
def k(x, y):
    m = ct.sum(ct.load(x, index=(0, 0), shape=(4, 16)), axis=0, keepdims=True)
    i = 0
    while i < x.shape[0]:
        t = ct.load(x, index=(i, 0), shape=(4, 16))
        ct.store(y, index=(i, 0), tile=t - m)
        i += 1
)", kSig);
  EXPECT_TRUE(contains(ir.substr(0, ir.find(" while ")), "broadcast %")) << ir;
}

}  // namespace
}  // namespace tile2cu
