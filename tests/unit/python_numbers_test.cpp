// Python's float(str) / int(str) on compile-time strings: the parsers, and the dtype
// constructors and builtins that use them (cuTile's test_control_flow.py::
// TestUndefinedVariable::test_3loops fills a tile with ct.float32("-inf")).
#include <cmath>

#include "sema/python_numbers.hpp"
#include "sema_test_util.hpp"

namespace tile2cu {
namespace {

using sema::python_float_of_string;
using sema::python_int_of_string;
using testing::compile_kernel;
using testing::ops_of_kind;

TEST(PythonNumbers, FloatOfString) {
  EXPECT_EQ(python_float_of_string("-inf"), -INFINITY);
  EXPECT_EQ(python_float_of_string(" +Infinity\n"), INFINITY);
  EXPECT_TRUE(std::isnan(*python_float_of_string("NaN")));
  EXPECT_EQ(python_float_of_string("1_000.5e-1"), 100.05);
  EXPECT_EQ(python_float_of_string(".5"), 0.5);
  EXPECT_EQ(python_float_of_string("3."), 3.0);
  for (const char* bad : {"", "--1", "1__0", "_1", "0x10", "1e", "e5", ".", "1.5+", "in f", "1 2"})
    EXPECT_FALSE(python_float_of_string(bad).has_value()) << bad;
}

TEST(PythonNumbers, IntOfString) {
  EXPECT_EQ(python_int_of_string(" -12 "), -12);
  EXPECT_EQ(python_int_of_string("1_000"), 1000);
  for (const char* bad : {"", "1.0", "0x10", "+", "1_", "99999999999999999999999999999999999"})
    EXPECT_FALSE(python_int_of_string(bad).has_value()) << bad;
}

TEST(PythonNumbers, DtypeConstructorsAndBuiltinsTakeStrings) {
  const char* sig = "x=float32[?]";
  const std::string pre = "@ct.kernel\ndef k(x):\n";
  ir::Function fn = compile_kernel(
      pre + "    t = ct.full((16,), ct.float32(\"-inf\"), dtype=ct.float32)\n"
            "    ct.static_assert(float(\"1e3\") == 1000.0 and int(\" 12 \") == 12)\n"
            "    ct.store(x, index=(0,), tile=t + ct.int8(\"300\").astype(ct.float32))\n",
      sig);
  bool minus_inf = false, wrapped = false;
  for (const ir::Op* op : ops_of_kind(fn, ir::OpKind::Constant)) {
    if (auto* d = std::get_if<double>(&op->literal)) minus_inf |= *d == -INFINITY;
    if (auto* i = std::get_if<__int128>(&op->literal)) wrapped |= *i == 44;  // 300 wraps in int8
  }
  EXPECT_TRUE(minus_inf) << ir::print_function(fn);
  EXPECT_TRUE(wrapped) << ir::print_function(fn);
  EXPECT_KERNEL_ERROR(pre + "    c = ct.float32(\"one\")\n", sig, ErrorKind::Type, "Invalid argument type for float32");
  EXPECT_KERNEL_ERROR(pre + "    c = ct.int32(\"1.5\")\n", sig, ErrorKind::Type, "Invalid argument type for int32");
  EXPECT_KERNEL_ERROR(pre + "    c = float(\"x\")\n", sig, ErrorKind::Value, "could not convert string to float: 'x'");
}

// cuTile's dtype constructors are (x=0, /): np.float32(), ct.int8() and cp.int8() are 0
// (test_full.py::test_full_np_value_call[*-None-*], test_full_cutile_value_call[None-*]).
TEST(PythonNumbers, DtypeConstructorsWithoutArgumentAreZero) {
  const char* sig = "x=float32[?]";
  const std::string pre = "import numpy as np\n@ct.kernel\ndef k(x):\n";
  ir::Function fn = compile_kernel(
      pre + "    t = ct.full((16,), np.float32(), ct.float32) + ct.float32()\n"
            "    b = ct.full((16,), ct.bool_(), ct.bool_)\n"
            "    ct.store(x, index=(0,), tile=t + ct.int8().astype(ct.float32) + b.astype(ct.float32))\n",
      sig);
  for (const ir::Op* op : ops_of_kind(fn, ir::OpKind::Constant)) {
    if (auto* d = std::get_if<double>(&op->literal)) EXPECT_EQ(*d, 0.0) << ir::print_function(fn);
    if (auto* i = std::get_if<__int128>(&op->literal)) EXPECT_EQ(*i, 0) << ir::print_function(fn);
  }
  EXPECT_KERNEL_ERROR(pre + "    c = ct.float32(1, 2)\n", sig, ErrorKind::Type,
                      "float32() takes at most one positional argument");
  EXPECT_KERNEL_ERROR(pre + "    c = ct.float32(x=1)\n", sig, ErrorKind::Type,
                      "float32() takes at most one positional argument");
}

// A typed constant at module level (test_typeinfer.py::test_typeof_numpy_scalar: the launcher
// writes a captured np.int16(4) as `val = ct.int16(4)`) keeps its dtype in every kernel that
// reads it, and stays a compile-time constant for static_assert.
TEST(PythonNumbers, ModuleLevelTypedConstantKeepsItsDtype) {
  const std::string body =
      "import numpy as np\nval = np.int16(4)\nwrapped = ct.uint8(300)\ninf16 = ct.float16(\"inf\")\n"
      "@ct.kernel\ndef k(x):\n"
      "    ct.static_assert(val.dtype == ct.int16 and wrapped.dtype == ct.uint8)\n"
      "    ct.static_assert(val == 4)\n"
      "    ct.static_assert(wrapped == 44)\n"
      "    ct.scatter(x, 0, (val + 1).astype(ct.float32) + inf16)\n";
  ir::Function fn = compile_kernel(body, "x=float32[?]");
  bool int16_constant = false;
  for (const ir::Op* op : ops_of_kind(fn, ir::OpKind::Constant))
    int16_constant |= fn.type(op->results[0]).dtype == DType::Int16;
  EXPECT_TRUE(int16_constant) << ir::print_function(fn);
}

}  // namespace
}  // namespace tile2cu
