// Checks that cuTile's own test suite makes with pytest.raises(match=...): tile2cu rejects
// these kernels with cuTile's words (docs/cutile-conformance.md). Each names the upstream test.
#include "sema_test_util.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::ops_of_kind;

const char* kSig1d = "x=float32[?], y=int32[?], z=int32[?]";

std::string kernel(const std::string& lines) {
  return "@ct.kernel\n"
         "def k(x, y, z):\n"
         "    a = ct.load(x, index=(0,), shape=(16,))\n"
         "    i = ct.load(y, index=(0,), shape=(16,))\n" +
         lines;
}

// test_binary_elementwise.py::test_array_bitwise_shift (float operands)
TEST(UpstreamMessages, BitwiseShiftNamesTheSide) {
  EXPECT_KERNEL_ERROR(kernel("    r = a << i\n"), kSig1d, ErrorKind::Type,
                      "Bitwise shift requires an integer for left-hand side, got: float32");
  EXPECT_KERNEL_ERROR(kernel("    r = i >> a\n"), kSig1d, ErrorKind::Type,
                      "Bitwise shift requires an integer for right-hand side, got: float32");
}

// test_typeinfer.py::test_enum_in_branch: both paths' values, the else path's first
TEST(UpstreamMessages, EnumDependingOnThePath) {
  EXPECT_KERNEL_ERROR(kernel("    if ct.bid(0) == 0:\n"
                             "        val = ct.MemoryOrder.RELAXED\n"
                             "    else:\n"
                             "        val = ct.MemoryOrder.WEAK\n"
                             "    print(val == ct.MemoryOrder.WEAK)\n"),
                      kSig1d, ErrorKind::Type,
                      "Type of `val` depends on path taken: <enum constant MemoryOrder.WEAK> (the else path) vs. "
                      "<enum constant MemoryOrder.RELAXED> (the if path)");
}

// test_helper_function.py::test_return_type_mismatch: an int on one path, a float on the other
TEST(UpstreamMessages, ReturnOfAnIntOrAFloat) {
  EXPECT_KERNEL_ERROR("def helper():\n"
                      "    if ct.bid(0) == 0:\n"
                      "        return 3\n"
                      "    else:\n"
                      "        return 5.0\n" +
                          kernel("    helper()\n"),
                      kSig1d, ErrorKind::Type, "Type of return value depends on path taken");
}

// test_array.py::test_array_setitem
TEST(UpstreamMessages, ArrayItemAssignment) {
  EXPECT_KERNEL_ERROR(kernel("    x[0] = 3.0\n"), kSig1d, ErrorKind::Type,
                      "Arrays do not support item assignment. Use store()");
}

// test_array_slice.py::test_axis_out_of_bounds (cuTile's text ends in a stray quote, which the
// test's pattern includes)
TEST(UpstreamMessages, AxisOutOfRange) {
  EXPECT_KERNEL_ERROR(kernel("    s = x.slice(axis=1, start=0, stop=5)\n"), kSig1d, ErrorKind::Type,
                      "Axis 1 is out of range for rank 1'");
  EXPECT_KERNEL_ERROR(kernel("    s = x.slice(axis=-2, start=0, stop=5)\n"), kSig1d, ErrorKind::Type,
                      "Axis -2 is out of range for rank 1'");
  EXPECT_KERNEL_ERROR(kernel("    s = ct.expand_dims(a, -3)\n"), kSig1d, ErrorKind::Type,
                      "Axis -3 is out of range for rank 2'");
}

// test_binary_elementwise.py::test_divmod_unsupported_for_floats
TEST(UpstreamMessages, DivmodOfFloats) {
  EXPECT_KERNEL_ERROR(kernel("    q = divmod(a, a)\n"), kSig1d, ErrorKind::Type,
                      "divmod() is not implemented for floating point values");
  EXPECT_KERNEL_ERROR(kernel("    q = ct.divmod(i, 2.0)\n"), kSig1d, ErrorKind::Type,
                      "divmod() is not implemented for floating point values");
  // Two Python numbers fold, floats included, as in Python and cuTile.
  compile_kernel(kernel("    q, r = divmod(7.5, 2.0)\n    ct.store(x, index=(0,), tile=a + q + r)\n"), kSig1d);
}

// test_cat.py: test_mixed_dtype, test_mixed_rank, test_mixed_shape, test_more_than_two_tiles,
// test_non_power_of_two
TEST(UpstreamMessages, Cat) {
  const std::string pre = "    t = ct.reshape(a, (4, 4))\n    u = ct.reshape(i, (4, 4))\n";
  EXPECT_KERNEL_ERROR(kernel(pre + "    c = ct.cat((t, t, t), 0)\n"), kSig1d, ErrorKind::Type,
                      "cat() supports at most 2 tiles, got 3");
  EXPECT_KERNEL_ERROR(kernel(pre + "    c = ct.cat((u, t), 0)\n"), kSig1d, ErrorKind::Type,
                      "Expected tiles to have the same dtype: int32 != float32");
  EXPECT_KERNEL_ERROR(kernel(pre + "    c = ct.cat((t, ct.reshape(a, (4, 2, 2))), 0)\n"), kSig1d,
                      ErrorKind::Type, "Expected tiles to have the same rank: 2 != 3");
  EXPECT_KERNEL_ERROR(kernel(pre + "    c = ct.cat((t, ct.reshape(a, (2, 8))), 0)\n"), kSig1d,
                      ErrorKind::Type, "Expected tiles to have the same shape for non axis dimensions, got (4, 4) and (2, 8)");
  EXPECT_KERNEL_ERROR(kernel(pre + "    c = ct.cat((t, ct.reshape(ct.extract(a, (0,), shape=(8,)), (2, 4))), 0)\n"),
                      kSig1d, ErrorKind::Type, "Result tile shape must be power of 2, got: [6, 4]");
}

// test_extract.py::test_extract_1d_non_scalar_item, test_extract_oob_2d
TEST(UpstreamMessages, ExtractAndItem) {
  EXPECT_KERNEL_ERROR(kernel("    v = ct.extract(a, (0,), shape=(2,)).item()\n"), kSig1d, ErrorKind::Type,
                      "Cannot reshape (2,) to ()");
  EXPECT_KERNEL_ERROR(kernel("    v = ct.extract(ct.reshape(a, (4, 4)), (2, 0), shape=(2, 4))\n"), kSig1d,
                      ErrorKind::Type,
                      "Index 2 out of bounds at dimension #0: valid range is [0, 2) in tile space "
                      "(input shape (4, 4), result shape (2, 4))");
}

// test_control_flow.py::TestIfCondtion::test_if_else_assignment_type_mismatch (and _match):
// the two sides of a run-time conditional expression have one type, a Python number counting
// as its default dtype.
TEST(UpstreamMessages, ConditionalExpressionSidesShareOneType) {
  const char* sig = "x=float32[?], c=int32";
  const std::string pre =
      "@ct.kernel\n"
      "def k(x, c: int):\n"
      "    t = ct.load(x, index=(0,), shape=(16,))\n";
  compile_kernel(pre + "    d = c if c else 100\n    u = t if c else t * 2.0\n"
                       "    ct.store(x, index=(0,), tile=u + d)\n", sig);
  EXPECT_KERNEL_ERROR(pre + "    u = c if c else t - 1\n", sig, ErrorKind::Type,
                      "Type of the conditional expression depends on path taken: int32 vs. Tile[float32,(16,)]");
  EXPECT_KERNEL_ERROR(pre + "    u = t if c else 0.0\n", sig, ErrorKind::Type, "depends on path taken");
  // A constant condition picks one side: the other is never typed.
  compile_kernel(pre + "    u = t if True else 0.0\n    ct.store(x, index=(0,), tile=u)\n", sig);
}

// Issue 23, round of cuTile test files g-z: each names its upstream test.
TEST(UpstreamMessages, TilesTuplesAndShapes) {
  // test_load_store.py::test_load_invalid_axis_order_with_repeating_axis
  EXPECT_KERNEL_ERROR("@ct.kernel\ndef k(x):\n    t = ct.load(x, index=(0, 1), shape=(16, 16), order=(1, 1))\n",
                      "x=float32[?, ?]", ErrorKind::Type,
                      "Axis order must be a permutation, but axis 1 is used at least twice");
  // test_gather_scatter.py::test_mask_type_error
  EXPECT_KERNEL_ERROR(kernel("    g = ct.gather(x, i, mask=i)\n"), kSig1d, ErrorKind::Type, "Expected a boolean tile");
  // test_generate.py::test_arange_invalid_size, test_arange_reject_dynamic_size
  EXPECT_KERNEL_ERROR(kernel("    r = ct.arange(3, dtype=ct.int32)\n"), kSig1d, ErrorKind::Type,
                      "Result tile shape must be power of 2");
  EXPECT_KERNEL_ERROR(kernel("    r = ct.arange(ct.bid(0), dtype=ct.int32)\n"), kSig1d, ErrorKind::Type,
                      "Expected an integer constant");
  // test_scan.py::test_custom_scan_none_axis
  EXPECT_KERNEL_ERROR(kernel("    r = ct.scan(i, axis=None, func=lambda p, q: p + q, identity=0)\n"), kSig1d,
                      ErrorKind::Type, "Expected an integer constant, but given value has type None");
  // test_reshape.py::test_reshape_more_than_one_negative_one, test_invalid_new_axis_indexing[tx[:]]
  EXPECT_KERNEL_ERROR(kernel("    r = ct.reshape(a, (-1, -1))\n"), kSig1d, ErrorKind::Type, "Only one dimension can be -1");
  EXPECT_KERNEL_ERROR(kernel("    b = ct.reshape(a, (4, 4))\n    r = b[:]\n"), kSig1d, ErrorKind::Type,
                      "Directly indexing a tile is not supported");
  // test_transpose.py::test_transpose_1d, test_transpose_2d_single_axis
  EXPECT_KERNEL_ERROR(kernel("    r = ct.transpose(a)\n"), kSig1d, ErrorKind::Type,
                      "Cannot transpose a tile with fewer than 2 dimensions");
  EXPECT_KERNEL_ERROR(kernel("    r = ct.transpose(ct.reshape(a, (4, 4)), axis0=0)\n"), kSig1d, ErrorKind::Type,
                      "transpose axes must either both be specified or both be None");
  // test_tuple.py::test_tuple_getitem_noninteger, _nonscalar, _nonconstant, _nontile
  EXPECT_KERNEL_ERROR(kernel("    t = (1, 2, 3)\n    r = t[1.0]\n"), kSig1d, ErrorKind::Type,
                      "Tuple indices must be integers or slices");
  EXPECT_KERNEL_ERROR(kernel("    t = (1, 2, 3)\n    r = t[i]\n"), kSig1d, ErrorKind::Type,
                      "Tuple indices must be integers or slices");
  EXPECT_KERNEL_ERROR(kernel("    t = (1, 2, 3)\n    r = t[ct.bid(0)]\n"), kSig1d, ErrorKind::Type,
                      "Tuple indices must be constant");
  EXPECT_KERNEL_ERROR(kernel("    t = (1, 2, 3)\n    r = t[(4, 5)]\n"), kSig1d, ErrorKind::Type,
                      "Tuple indices must be integers or slices");
  // test_tuple.py::test_pass_non_tuple_starred, test_element_in_tuple_tensor_raises,
  // test_tuple_compare_nd_tile_error, _unsupported_op, _array_element_error
  EXPECT_KERNEL_ERROR(kernel("    r = max(*a)\n"), kSig1d, ErrorKind::Type, "Expected a tuple after *");
  EXPECT_KERNEL_ERROR(kernel("    r = 2 in (1, a, 2)\n"), kSig1d, ErrorKind::Type, "'in' requires scalar operands");
  EXPECT_KERNEL_ERROR(kernel("    r = (a,) == (a,)\n"), kSig1d, ErrorKind::Type, "not supported for non-scalar elements");
  EXPECT_KERNEL_ERROR(kernel("    r = (1, 2) < (3, 4)\n"), kSig1d, ErrorKind::Type, "not supported for tuples");
  EXPECT_KERNEL_ERROR(kernel("    r = (x,) == (y,)\n"), kSig1d, ErrorKind::Type, "not supported for elements of type");
}

TEST(UpstreamMessages, MmaDtypes) {  // test_mma.py::test_mma_dtype_error, test_matmul_dtype_error, fast acc
  const std::string sig = "x=float16[?, ?], y=bfloat16[?, ?], z=int16[?, ?]";
  auto body = [](const std::string& line) {
    return "@ct.kernel\ndef k(x, y, z):\n"
           "    a = ct.load(x, index=(0, 0), shape=(16, 16))\n"
           "    b = ct.load(y, index=(0, 0), shape=(16, 16))\n"
           "    c = ct.load(z, index=(0, 0), shape=(16, 16))\n" + line;
  };
  EXPECT_KERNEL_ERROR(body("    r = ct.mma(a, b, ct.zeros((16, 16), dtype=ct.float32))\n"), sig, ErrorKind::Type,
                      "x and y must have the same dtype");
  EXPECT_KERNEL_ERROR(body("    r = ct.mma(c, c, ct.zeros((16, 16), dtype=ct.float32))\n"), sig, ErrorKind::Type,
                      "Unsupported input dtype");
  EXPECT_KERNEL_ERROR(body("    r = ct.mma(b, b, ct.zeros((16, 16), dtype=ct.float16))\n"), sig, ErrorKind::Type,
                      "Unsupported acc dtype");
  EXPECT_KERNEL_ERROR(body("    r = ct.matmul(a, b)\n"), sig, ErrorKind::Type,
                      "Implicit promotion of float16 and bfloat16 is not supported");
  EXPECT_KERNEL_ERROR(body("    r = ct.matmul(c, c)\n"), sig, ErrorKind::Type, "Unsupported input dtype");
  EXPECT_KERNEL_ERROR(body("    r = ct.mma(a, a, ct.zeros((16, 16), dtype=ct.float32), use_fast_acc=True)\n"), sig,
                      ErrorKind::Type, "use_fast_acc is only supported for fp8");
}

TEST(UpstreamMessages, CombinerBodies) {  // test_reduction.py, test_scan.py: *_not_supported, restricted dtype
  const char* sig = "x=int32[?, ?], y=int32[?], z=float8_e4m3fn[?]";
  auto body = [](const std::string& f, const std::string& op) {
    return "@ct.kernel\ndef k(x, y, z):\n"
           "    def f(a, b):\n" + f +
           "    t = ct.load(x, (0, 0), (16, 16))\n"
           "    r = " + op + "\n";
  };
  const std::string reduce = "ct.reduce(t, -1, f, 0)", scan = "ct.scan(t, axis=1, func=f, identity=0)";
  EXPECT_KERNEL_ERROR(body("        ct.printf('%d %d', a, b)\n        return a + b\n", reduce), sig, ErrorKind::Syntax,
                      "Operations with memory effects are not supported inside reduction body");
  EXPECT_KERNEL_ERROR(body("        return ct.load(x, (a, b), (1, 1)).item()\n", scan), sig, ErrorKind::Syntax,
                      "Operations with memory effects are not supported inside scan body");
  EXPECT_KERNEL_ERROR(body("        for i in range(3):\n            a = a + b\n        return a\n", reduce), sig,
                      ErrorKind::Syntax, "Loops inside reduction body are not supported");
  EXPECT_KERNEL_ERROR(body("        if a > 0:\n            b = b + 1\n        return a + b\n", reduce), sig,
                      ErrorKind::Syntax, "Branching inside reduction body is not supported");
  EXPECT_KERNEL_ERROR(body("        s = ct.scan(ct.full((1,), 1, dtype=ct.int32), axis=0, func=lambda u, v: u + v, identity=0)\n"
                           "        return a + b + s.item()\n", scan),
                      sig, ErrorKind::Syntax, "Nested scan/reduction is not supported");
  EXPECT_KERNEL_ERROR("@ct.kernel\ndef k(x, y, z):\n    r = ct.cumsum(ct.load(z, (0,), (16,)), axis=0)\n", sig,
                      ErrorKind::Type, "Non-arithmetic dtype float8_e4m3fn is unsupported");
}

TEST(UpstreamMessages, StaticEvalAssertAndIter) {  // test_static_eval.py, test_static_assert.py, test_static_iter.py
  // test_static_eval_allow_pure_expressions_binary_op[eq|ge|gt|le|lt|ne]: run-time operands
  compile_kernel(kernel("    p = ct.bid(0) + 15\n    q = ct.bid(1) + 4\n    r = ct.static_eval(operator.ge(p, q))\n"
                        "    ct.scatter(z, (), r)\n").insert(0, "import operator\n"),
                 "x=float32[?], y=int32[?], z=int32[]");
  // test_closure
  EXPECT_KERNEL_ERROR(kernel("    def f(n):\n        return n + 1\n    r = ct.static_eval(f(3))\n"), kSig1d,
                      ErrorKind::StaticEval, "cannot be called inside static_eval()");
  // test_static_eval_error_when_called_indirectly, test_static_iter_called_indirectly
  EXPECT_KERNEL_ERROR(kernel("    f = ct.static_eval\n    r = f(1 * 2)\n"), kSig1d, ErrorKind::Syntax,
                      "static_eval() must be used directly");
  EXPECT_KERNEL_ERROR(kernel("    f = ct.static_iter\n    for s in f(range(3)):\n        pass\n"), kSig1d,
                      ErrorKind::Syntax, "static_iter() must be used directly by name");
  // test_static_assert_empty_string_message: nothing after the words
  testing::CompileFailure empty = testing::compile_kernel_failure(kernel("    ct.static_assert(False, '')\n"), kSig1d);
  EXPECT_EQ(empty.message, "Static assertion failed");
  // test_static_assert_error_when_condition_is_not_constant, _too_many_args
  EXPECT_KERNEL_ERROR(kernel("    c = ct.bid(0) > 2\n    ct.static_assert(c)\n"), kSig1d, ErrorKind::Type,
                      "static_assert() condition must be a compile-time constant");
  EXPECT_KERNEL_ERROR(kernel("    ct.static_assert(True, 'm', 123)\n"), kSig1d, ErrorKind::Syntax,
                      "static_assert(cond, msg=None, /) expects one or two positional arguments");
  // test_static_iter_continue_not_allowed, test_static_iter_dynamic_bound
  EXPECT_KERNEL_ERROR(kernel("    for s in ct.static_iter((1, 2)):\n        continue\n"), kSig1d, ErrorKind::Syntax,
                      "Continue in a for loop with static_iter() is not supported");
  EXPECT_KERNEL_ERROR(kernel("    n = ct.bid(0)\n    for s in ct.static_iter(range(n)):\n        pass\n"), kSig1d,
                      ErrorKind::StaticEval, "Symbolic tile has no concrete value and thus cannot be converted to an integer");
}

TEST(UpstreamMessages, TupleComparesRunTimeScalars) {  // test_tuple.py::test_tuple_compare_0d_tiles_eq
  ir::Function fn = compile_kernel(kernel("    p = ct.bid(0)\n    q = ct.bid(1)\n"
                                          "    if (p, q) == (0, 0):\n        ct.scatter(z, (), 1)\n"
                                          "    if p in (1, q, 3):\n        ct.scatter(z, (), 2)\n"),
                                   "x=float32[?], y=int32[?], z=int32[]");
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::If).size(), 2u);
}

// test_static_eval.py::test_static_eval_error_when_calling_bound_method, _calling_tile_func;
// test_static_iter.py::test_static_iter_tile_ops_not_allowed_in_iterable;
// test_static_assert.py::test_static_assert_error_when_calling_tile_func
TEST(UpstreamMessages, TileFunctionsInsideStaticEvaluation) {
  EXPECT_KERNEL_ERROR(kernel("    ct.static_eval(x.slice(0, 1, 2))\n"), kSig1d, ErrorKind::StaticEval,
                      "slice() cannot be called inside static_eval()");
  EXPECT_KERNEL_ERROR(kernel("    ct.static_eval(ct.scatter(y, (0,), i))\n"), kSig1d, ErrorKind::StaticEval,
                      "scatter() cannot be called inside static_eval()");
  EXPECT_KERNEL_ERROR(kernel("    for s in ct.static_iter(ct.ones((4,), dtype=ct.int32)):\n        pass\n"), kSig1d,
                      ErrorKind::StaticEval, "ones() cannot be called inside static_iter() iterable");
  EXPECT_KERNEL_ERROR(kernel("    ct.static_assert(ct.ones((4,), dtype=ct.int32).dtype == ct.int32)\n"), kSig1d,
                      ErrorKind::StaticEval, "ones() cannot be called inside static_assert()");
  // test_static_eval.py::test_exception_raised_inside_static_eval
  EXPECT_KERNEL_ERROR(kernel("    n = 0\n    ct.static_eval(1 // n)\n"), kSig1d, ErrorKind::StaticEval,
                      "Exception was raised inside static_eval() (ZeroDivisionError: integer division by zero)");
  // Pure functions stay allowed (test_static_eval_allow_pure_expressions_binary_op[minimum]).
  compile_kernel(kernel("    r = ct.static_eval(ct.minimum(i, 3))\n"), kSig1d);
}

// test_typeinfer.py::test_control_flow_type_mismatch: a Python number has its own type (int32,
// float32, bool_) where paths meet, at an if, a loop's header and the breaks of `while True`;
// it does not take the other path's.
TEST(UpstreamMessages, TypeDependingOnThePath) {
  const char* why = "Type of `a` depends on path taken";
  EXPECT_KERNEL_ERROR(kernel("    if ct.bid(0) == 0:\n        a = 1\n    else:\n        a = 2.0\n"
                             "    ct.store(x, (0,), a)\n"),
                      kSig1d, ErrorKind::Type, why);
  EXPECT_KERNEL_ERROR(kernel("    if ct.bid(0) == 0:\n        a = ct.int16(3)\n    else:\n        a = 2\n"
                             "    ct.store(y, (0,), a)\n"),
                      kSig1d, ErrorKind::Type, why);
  EXPECT_KERNEL_ERROR(kernel("    a = 1\n    for _ in range(10):\n        a *= 2.0\n    ct.store(x, (0,), a)\n"),
                      kSig1d, ErrorKind::Type, why);
  EXPECT_KERNEL_ERROR(kernel("    a = 1\n    j = 0\n    while j < 10:\n        a *= 2.0\n        j += 1\n"
                             "        if j >= 5:\n            break\n    ct.store(x, (0,), a)\n"),
                      kSig1d, ErrorKind::Type, why);
  EXPECT_KERNEL_ERROR(kernel("    j = 0\n    while True:\n        j += 1\n        if j >= 5:\n            v = 3.0\n"
                             "            break\n        elif j >= ct.bid(0):\n            v = 5\n            break\n"
                             "    ct.store(x, (0,), v)\n"),
                      kSig1d, ErrorKind::Type, "Type of `v` depends on path taken: Tile[int32,()] vs. Tile[float32,()]");
  // Numbers of one kind still merge, and a number meets a run-time value of its own type.
  compile_kernel(kernel("    if ct.bid(0) == 0:\n        a = 1\n    else:\n        a = ct.bid(1)\n"
                        "    b = 0.5\n    for _ in range(4):\n        b = b + 1\n    ct.store(x, (0,), b + a)\n"),
                 kSig1d);
}

// test_constfold.py::test_is_or_not_op_on_none_constant
TEST(UpstreamMessages, IsWantsNone) {
  EXPECT_KERNEL_ERROR(kernel("    r = a is i\n"), kSig1d, ErrorKind::Type, "Operator 'is' expects one of the operands to be None");
  EXPECT_KERNEL_ERROR(kernel("    r = a is not i\n"), kSig1d, ErrorKind::Type,
                      "Operator 'is not' expects one of the operands to be None");
}

// test_typeinfer.py::test_sub_byte_dtype_not_usable_as_constructor,
// test_unsupported_builtin_function, test_unsupported_class_constructor (UnsupportedCallError)
TEST(UpstreamMessages, CallsDeviceCodeCannotMake) {
  EXPECT_KERNEL_ERROR(kernel("    ct.float4_e2m1fn(2.0)\n"), kSig1d, ErrorKind::Type,
                      "Cannot call an object of type DTypeSpec(dtype=<DType 'float4_e2m1fn'>)");
  EXPECT_KERNEL_ERROR(kernel("    eval('2 + 2')\n"), kSig1d, ErrorKind::UnsupportedCall, "eval() is not supported in device code");
  EXPECT_KERNEL_ERROR(kernel("    d = dict()\n"), kSig1d, ErrorKind::UnsupportedCall,
                      "Creating instances of type \"dict\" is not supported in device code");
}

}  // namespace
}  // namespace tile2cu
