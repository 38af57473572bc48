// Constant propagation through loop results: a name is a compile-time constant after a loop when
// every way out of the loop leaves it the same constant (cuTile's test_control_flow.py,
// TestWhileLoop::test_same_constant_two_branches_inside_loop, test_break_with_const_value).
#include <gtest/gtest.h>

#include "sema_test_util.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::compile_kernel_failure;

const char* kSig = "x=float32[?]";

TEST(LoopResultConstants, EveryBreakOfAWhileTrueLeavesTheSameConstant) {
  compile_kernel(R"(
@ct.kernel
def k(x):
    a = 0
    while True:
        if ct.bid(0) == 0:
            a = 1
            break
        a = 1
        break
    ct.store(x, (0,), ct.full((a,), 3.0, x.dtype))
)", kSig);
}

TEST(LoopResultConstants, ABackEdgeThatChangesTheNameDoesNotReachTheResult) {
  // `a += 1` feeds the next iteration only; the loop is left by the break alone.
  compile_kernel(R"(
@ct.kernel
def k(x):
    a = 0
    while True:
        if ct.bid(0) == 0:
            a = 1
            break
        a += 1
    ct.store(x, (0,), ct.full((a,), 1.0, x.dtype))
)", kSig);
}

TEST(LoopResultConstants, BreaksWithDifferentConstantsLeaveARunTimeValue) {
  auto f = compile_kernel_failure(R"(
@ct.kernel
def k(x):
    a = 0
    while True:
        if ct.bid(0) == 0:
            a = 1
            break
        a = 2
        break
    ct.store(x, (0,), ct.full((a,), 3.0, x.dtype))
)", kSig);
  EXPECT_EQ(f.kind, ErrorKind::Type);
  EXPECT_NE(f.message.find("Invalid argument \"shape\" of full(): Expected a const"), std::string::npos) << f.message;
}

TEST(LoopResultConstants, AForLoopBreakMustAgreeWithTheLoopsEnd) {
  // The end of the range passes the unchanged 1; a break passing 2 makes it run-time.
  compile_kernel(R"(
@ct.kernel
def k(x):
    a = 1
    for i in range(4):
        if ct.bid(0) == i:
            a = 1
            break
    ct.store(x, (0,), ct.full((a,), 3.0, x.dtype))
)", kSig);
  auto f = compile_kernel_failure(R"(
@ct.kernel
def k(x):
    a = 1
    for i in range(4):
        if ct.bid(0) == i:
            a = 2
            break
    ct.store(x, (0,), ct.full((a,), 3.0, x.dtype))
)", kSig);
  EXPECT_EQ(f.kind, ErrorKind::Type);
}

TEST(LoopResultConstants, AWhileLoopLeftByItsConditionStaysRunTime) {
  auto f = compile_kernel_failure(R"(
@ct.kernel
def k(x):
    a = 1
    while ct.bid(0) == 0:
        a = 1
        break
    ct.store(x, (0,), ct.full((a,), 3.0, x.dtype))
)", kSig);
  EXPECT_EQ(f.kind, ErrorKind::Type);
}

}  // namespace
}  // namespace tile2cu
