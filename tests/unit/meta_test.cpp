// Meta-programming (spec a.6, c.13): ct.static_eval, ct.static_assert, ct.ensure_constant and
// ct.static_iter, evaluated at compile time by sema; what needs the GPU is a TileStaticEvalError.
#include "sema_test_util.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::ops_of_kind;

// A kernel whose body is `lines`, loading t from x and storing whatever `y_tile` names.
std::string kernel(const std::string& lines) {
  return "@ct.kernel\n"
         "def k(x, y, TILE: ct.Constant[int]):\n"
         "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n" + lines;
}
const char* kSig = "x=float32[?], y=float32[?], TILE=64";

TEST(Meta, StaticIterUnrollsOverATuple) {
  ir::Function fn = compile_kernel(kernel("    acc = t\n"
                                          "    for s in ct.static_iter((1.0, 2.0, 3.0)):\n"
                                          "        acc = acc * s\n"
                                          "    ct.store(y, index=(ct.bid(0),), tile=acc)\n"),
                                   kSig);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::For).size(), 0u);  // no loop left: unrolled
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Binary).size(), 3u);
}

TEST(Meta, StaticIterOverRangeEnumerateAndLists) {
  ir::Function fn = compile_kernel(kernel("    acc = t\n"
                                          "    for i, s in ct.static_iter(enumerate([TILE, TILE // 2])):\n"
                                          "        acc = acc + (i + s)\n"
                                          "    for j in ct.static_iter(range(1, 7, 2)):\n"
                                          "        acc = acc - j\n"
                                          "    ct.store(y, index=(ct.bid(0),), tile=acc)\n"),
                                   kSig);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Binary).size(), 5u);  // 2 from enumerate, 3 from range
}

TEST(Meta, StaticIterItemsMayDifferInType) {
  // Each iteration is lowered on its own, so the loop variable may be a tile, then a dtype.
  compile_kernel(kernel("    for v in ct.static_iter((t, ct.float16)):\n"
                        "        pass\n"
                        "    ct.store(y, index=(ct.bid(0),), tile=t)\n"),
                 kSig);
}

TEST(Meta, StaticIterRejectsJumpsAndRuntimeIterables) {
  EXPECT_KERNEL_ERROR(kernel("    for s in ct.static_iter((1, 2)):\n        break\n"), kSig, ErrorKind::Syntax,
                      "Break in a for loop with static_iter() is not supported");
  EXPECT_KERNEL_ERROR(kernel("    for s in ct.static_iter((1, 2)):\n        return\n"), kSig, ErrorKind::Syntax,
                      "Returning from a for loop is not supported");
  // break inside a runtime loop nested in the static_iter belongs to that loop: fine.
  compile_kernel(kernel("    for s in ct.static_iter((1, 2)):\n"
                        "        for i in range(ct.bid(0)):\n"
                        "            break\n"
                        "    ct.store(y, index=(ct.bid(0),), tile=t)\n"),
                 kSig);
  EXPECT_KERNEL_ERROR(kernel("    for s in ct.static_iter(range(ct.bid(0))):\n        pass\n"), kSig,
                      ErrorKind::StaticEval, "ct.static_iter() is evaluated at compile time and cannot contain the tile operation");
  EXPECT_KERNEL_ERROR(kernel("    for s in ct.static_iter(range(1.5)):\n        pass\n"), kSig, ErrorKind::StaticEval,
                      "range() inside ct.static_iter() needs compile-time integers");
  EXPECT_KERNEL_ERROR(kernel("    for s in ct.static_iter(range(1001)):\n        pass\n"), kSig,
                      ErrorKind::StaticEval, "Maximum number of iterations (1000) has been reached");
  EXPECT_KERNEL_ERROR(kernel("    for s in ct.static_iter(TILE):\n        pass\n"), kSig, ErrorKind::Type,
                      "Invalid static_iter() iterable: 'int' object is not iterable");
  EXPECT_KERNEL_ERROR(kernel("    r = ct.static_iter((1, 2))\n"), kSig, ErrorKind::Syntax,
                      "static_iter() is only allowed as iterable in a `for` loop");
}

TEST(Meta, StaticEvalFoldsAndSelects) {
  ir::Function fn = compile_kernel(kernel("    n = ct.static_eval(len([1, 2, 3]) * TILE)\n"
                                          "    ct.static_assert(n == 192)\n"
                                          "    u = ct.static_eval(t if TILE % 2 == 0 else t + 1)\n"
                                          "    ct.store(y, index=(ct.bid(0),), tile=u * 2)\n"),
                                   kSig);
  // The selected value is t itself: the only arithmetic left is `u * 2`.
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Binary).size(), 1u);
}

// cuTile's test_static_eval.py test_tuple_sum / test_list_comprehension: inside static_eval,
// sum() adds a tuple's or list's items onto its start, and comprehensions (list, generator)
// are host Python; outside, a list comprehension is not tile code.
TEST(Meta, StaticEvalSumsAndComprehensions) {
  ir::Function fn = compile_kernel(kernel("    tup = (1, 2, 3)\n"
                                          "    ct.static_assert(ct.static_eval(sum(tup)) == 6)\n"
                                          "    ct.static_assert(ct.static_eval(sum([i * i for i in tup])) == 14)\n"
                                          "    ct.static_assert(ct.static_eval(sum([i for i in tup if i > 1], 10)) == 15)\n"
                                          "    ct.static_assert(ct.static_eval(sum((0.5, 1), start=1)) == 2.5)\n"
                                          "    ct.static_assert(ct.static_eval(tuple(2 * i for i in tup)) == (2, 4, 6))\n"
                                          "    n = ct.static_eval(sum([TILE, TILE]))\n"
                                          "    ct.store(y, index=(ct.bid(0),), tile=t + n)\n"),
                                   kSig);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Store).size(), 1u);
  EXPECT_KERNEL_ERROR(kernel("    n = [i for i in (1, 2)]\n"), kSig, ErrorKind::Syntax,
                      "Unsupported syntax: list comprehension");
  EXPECT_KERNEL_ERROR(kernel("    n = ct.static_eval(sum(3))\n"), kSig, ErrorKind::StaticEval,
                      "sum() takes a tuple or a list, got");
  testing::CompileFailure outside = testing::compile_kernel_failure(kernel("    n = sum((1, 2))\n"), kSig);
  EXPECT_EQ(outside.message, "sum() is not supported in device code");
}

// cuTile's test_nested_static_eval and test_prohibit_walrus: their messages, the walrus's as a
// syntax error naming the variable (outside static_eval `:=` stays unsupported syntax).
TEST(Meta, StaticEvalRefusesNestingAndWalrus) {
  EXPECT_KERNEL_ERROR(kernel("    v = ct.static_eval(ct.static_eval(20))\n"), kSig, ErrorKind::StaticEval,
                      "static_eval() cannot be used inside static_eval().");
  EXPECT_KERNEL_ERROR(kernel("    ct.static_eval((z := x))\n"), kSig, ErrorKind::Syntax,
                      "static_eval() expression attempted to modify a local variable 'z'");
  EXPECT_KERNEL_ERROR(kernel("    if (z := TILE) > 1:\n        pass\n"), kSig, ErrorKind::Syntax,
                      "Unsupported syntax: walrus operator");
}

// Tuple repetition is host Python (cuTile's test_astile.py::test_astile_shape indexes with
// ct.static_eval((0,) * len(shape))); tile code outside static_eval has no such operator.
TEST(Meta, StaticEvalRepeatsTuples) {
  ir::Function fn = compile_kernel(kernel("    n = ct.static_eval((0,) * 2 + 3 * (TILE,) + (1,) * -1)\n"
                                          "    ct.static_assert(n == (0, 0, 64, 64, 64))\n"
                                          "    b = ct.bid(0)\n"
                                          "    ct.store(y, index=ct.static_eval((b,) * 1), tile=t)\n"),
                                   kSig);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Store).size(), 1u);
  EXPECT_KERNEL_ERROR(kernel("    n = ct.static_eval((0,) * 5000)\n"), kSig, ErrorKind::StaticEval,
                      "a tuple of more than 4096 values");
  EXPECT_KERNEL_ERROR(kernel("    n = (0,) * 2\n"), kSig, ErrorKind::Type, "Unsupported operand types for *: Tuple[Tile[int32,()]] and Tile[int32,()]");
}

// cuTile's test_constfold.py test_dtype_comparison / test_string_comparison: `a is True` inside
// static_assert is Python's identity on True, False, None and dtypes; strings order as Python's.
TEST(Meta, StaticAssertIsOnConstantsAndStringOrder) {
  ir::Function fn = compile_kernel(kernel("    a = ct.float32 == ct.float32\n"
                                          "    ct.static_assert(a is True)\n"
                                          "    ct.static_assert((ct.float32 != ct.float64) is not False)\n"
                                          "    ct.static_assert(ct.float32 is ct.float32)\n"
                                          "    ct.static_assert(not (1 is True))\n"
                                          "    ct.static_assert((\"foo\" < \"bar\") is False)\n"
                                          "    ct.static_assert((\"foo\" >= \"bar\") is True)\n"
                                          "    ct.static_assert(\"ab\" < \"abc\" and \"b\" > \"abc\")\n"
                                          "    ct.store(y, index=(ct.bid(0),), tile=t)\n"),
                                   kSig);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Store).size(), 1u);
  // Equal ints or strings may or may not be one object in Python: refused, as outside static_assert.
  EXPECT_KERNEL_ERROR(kernel("    ct.static_assert(TILE is 64)\n"), kSig, ErrorKind::StaticEval,
                      "supported against None, True, False and dtypes");
  EXPECT_KERNEL_ERROR(kernel("    b = TILE is True\n"), kSig, ErrorKind::Type, "only supported against None");
  EXPECT_KERNEL_ERROR(kernel("    b = \"a\" < 1\n"), kSig, ErrorKind::Type, "'<' is not supported between a string and");
}

TEST(Meta, StaticEvalCannotRunTileOperations) {
  EXPECT_KERNEL_ERROR(kernel("    n = ct.static_eval(x.shape[0])\n"), kSig, ErrorKind::StaticEval,
                      "cannot contain the tile operation 'array_dim'");
  EXPECT_KERNEL_ERROR(kernel("    n = ct.static_eval(ct.bid(0) + 1)\n"), kSig, ErrorKind::StaticEval,
                      "cannot contain the tile operation");
  EXPECT_KERNEL_ERROR(kernel("    n = ct.static_eval(sorted((2, 1)))\n"), kSig, ErrorKind::StaticEval,
                      "ct.static_eval() could not evaluate its argument: sorted() is not supported in device code");
  EXPECT_KERNEL_ERROR(kernel("    n = ct.static_eval(1, 2)\n"), kSig, ErrorKind::Syntax,
                      "static_eval() expects a single expression");
}

TEST(Meta, StaticAssertPassesAndFailsWithItsMessage) {
  compile_kernel(kernel("    ct.static_assert(TILE % 16 == 0, 'TILE must be a multiple of 16')\n"
                        "    ct.static_assert(x.dtype == ct.float32)\n"
                        "    ct.store(y, index=(ct.bid(0),), tile=t)\n"),
                 kSig);
  EXPECT_KERNEL_ERROR(kernel("    ct.static_assert(TILE > 100, 'TILE too small')\n"), kSig, ErrorKind::StaticAssertion,
                      "Static assertion failed: TILE too small");
  // Python's str() of a tuple shows its items' repr(), as cuTile's message does.
  EXPECT_KERNEL_ERROR(kernel("    ct.static_assert(TILE > 100, (TILE, 'x', 2.0))\n"), kSig, ErrorKind::StaticAssertion,
                      "Static assertion failed: (64, 'x', 2.0)");
  testing::CompileFailure f = testing::compile_kernel_failure(kernel("    ct.static_assert(TILE > 100)\n"), kSig);
  EXPECT_EQ(f.message, "Static assertion failed");
  EXPECT_KERNEL_ERROR(kernel("    ct.static_assert(ct.bid(0) > 0)\n"), kSig, ErrorKind::StaticEval,
                      "cannot contain the tile operation");
  EXPECT_KERNEL_ERROR(kernel("    ct.static_assert(t[0] > 0)\n"), kSig, ErrorKind::StaticEval,
                      "could not evaluate its argument");
  EXPECT_KERNEL_ERROR(kernel("    ct.static_assert(TILE)\n"), kSig, ErrorKind::Type,
                      "static_assert() condition must be a boolean, got int constant 64");
}

TEST(Meta, StaticAssertInADeadBranchIsNeverChecked) {
  compile_kernel(kernel("    if TILE > 1000:\n"
                        "        ct.static_assert(False, 'unreachable')\n"
                        "    ct.store(y, index=(ct.bid(0),), tile=t)\n"),
                 kSig);
}

TEST(Meta, EnsureConstant) {
  compile_kernel(kernel("    n = ct.ensure_constant(TILE * 2)\n"
                        "    d = ct.ensure_constant(x.dtype)\n"
                        "    c = ct.ensure_constant(ct.int16(5))\n"
                        "    ct.store(y, index=(ct.bid(0),), tile=t.astype(d) * n)\n"),
                 kSig);
  EXPECT_KERNEL_ERROR(kernel("    n = ct.ensure_constant(ct.bid(0))\n"), kSig, ErrorKind::StaticAssertion,
                      "ct.ensure_constant(): the value is not a compile-time constant (it is int32 scalar)");
  EXPECT_KERNEL_ERROR(kernel("    n = ct.ensure_constant(x)\n"), kSig, ErrorKind::StaticAssertion,
                      "not a compile-time constant");
}

}  // namespace
}  // namespace tile2cu
