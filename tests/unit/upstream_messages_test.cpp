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

}  // namespace
}  // namespace tile2cu
