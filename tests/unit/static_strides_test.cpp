// Static strides (cuTile's ArrayAnnotation(static_stride_dims=...), test_array.py::
// test_static_stride_*): the signature's `strides(10, ?)`, x.strides[k] as a compile-time
// constant, the launcher's check and the kernel's addressing with the constant.
#include <gtest/gtest.h>

#include <string>

#include "sema/signature.hpp"
#include "sema_test_util.hpp"
#include "text_match.hpp"
#include "tile2cu/tile2cu.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;

TEST(StaticStrides, SignatureParsesAndPrints) {
  KernelSignature s = parse_signature("x=float16[?, 8] strides(10, ?) align16, y=float32[4, 8] strides(1, 0)", "--sig");
  const auto& x = std::get<ArrayConstraint>(s.params[0].constraint);
  ASSERT_EQ(x.strides.size(), 2u);
  EXPECT_EQ(x.strides[0], 10);
  EXPECT_FALSE(x.strides[1].has_value());
  EXPECT_TRUE(x.aligned16);
  EXPECT_EQ(constraint_string(s.params[0]), "x=float16[?, 8] strides(10, ?) align16");
  EXPECT_EQ(constraint_string(s.params[1]), "y=float32[4, 8] strides(1, 0)");  // 0: a broadcast axis
}

TEST(StaticStrides, SignatureErrors) {
  auto message = [](const std::string& text) {
    try {
      parse_signature(text, "--sig");
    } catch (const CompileError& e) {
      return e.message();
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("x=float32[?, ?] strides(1)"), "strides(...) gives 1 strides for an array of rank 2");
  EXPECT_EQ(message("x=float32[?] strides(-1)"), "a stride is ? or an integer from 0 to 2147483647");
  EXPECT_EQ(message("x=float32[?] strides(4294967296)"), "a stride is ? or an integer from 0 to 2147483647");
  EXPECT_EQ(message("x=float32[?, ?] strides(1, 2) contiguous"),
            "contiguous (last stride 1) contradicts strides(...) giving the last stride 2");
}

// test_stride_is_static, test_static_stride_broadcast_axis: static_eval and static_assert read
// the listed strides; a run-time one is still refused there, where it is picked.
TEST(StaticStrides, StridesAreCompileTimeConstants) {
  const std::string pre = "@ct.kernel\ndef k(x, out):\n";
  const char* sig = "x=float32[?, ?] strides(10, 0), out=float32[?, ?]";
  ir::Function fn = compile_kernel(pre +
                                       "    ct.static_assert(ct.static_eval(x.strides[0]) == 10)\n"
                                       "    ct.static_assert(x.strides[1] == 0 and len(ct.static_eval(x.strides)) == 2)\n"
                                       "    ct.store(out, (0, 0), ct.load(x, (0, 0), (4, 8)))\n",
                                   sig);
  EXPECT_TRUE(testing::ops_of_kind(fn, ir::OpKind::ArrayStride).empty()) << ir::print_function(fn);
  EXPECT_KERNEL_ERROR(pre + "    s = ct.static_eval(out.strides[1])\n", sig, ErrorKind::StaticEval,
                      "cannot contain the tile operation 'array_stride'");
}

// test_list.py::test_add_list_static_stride: a list's ArrayAnnotation(static_stride_dims=(0,))
// makes every item's stride 0 a constant: `xs[i].strides[0]` is one at compile time, and the
// launcher checks each item (the kernel reads the strides from the list's table).
TEST(StaticStrides, ListItemsShareTheListsStaticStrides) {
  const char* source =
      "import cuda.tile as ct\n\n\n@ct.kernel\ndef k(xs, out):\n"
      "    a = xs[0]\n"
      "    ct.static_assert(a.strides[0] == 10)\n"
      "    res = ct.zeros((4, 8), dtype=out.dtype)\n"
      "    for i in range(len(xs)):\n"
      "        res += ct.load(xs[i], (0, 0), (4, 8))\n"
      "    ct.store(out, (0, 0), res)\n";
  TranspileOptions o;
  o.signatures = {"xs=list[int32[?, ?] strides(10, ?)], out=int32[?, ?]"};
  o.header_name = "k.cuh";
  TranspileResult r = transpile("k.py", source, o);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "if (!tile2cu::list_has_strides(xs, {10, -1})) return cudaErrorInvalidValue;")) << r.cu;
  o.signatures = {"xs=list[int32[?, ?] strides(12, ?)], out=int32[?, ?]"};
  r = transpile("k.py", source, o);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.diagnostics, "Static assertion failed")) << r.diagnostics;
}

TEST(StaticStrides, LauncherChecksAndKernelAddressesWithTheConstant) {
  TranspileOptions o;
  o.signatures = {"x=float32[?, ?, ?] strides(8, 16, ?), out=float32[?, ?, ?]"};
  o.header_name = "k.cuh";
  TranspileResult r = transpile("k.py",
                                "import cuda.tile as ct\n\n\n@ct.kernel\ndef k(x, out):\n"
                                "    ct.store(out, (0, 0, 0), ct.load(x, (0, 0, 0), (2, 4, 8)))\n",
                                o);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "x{x_data, {x_shape_0, x_shape_1, x_shape_2}, {8, 16, x_stride_2}}")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "if (x.strides[0] != 8) return cudaErrorInvalidValue;")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "if (x.strides[1] != 16) return cudaErrorInvalidValue;")) << r.cu;
  EXPECT_FALSE(contains(r.cu, "x.strides[2] !=")) << r.cu;
}

}  // namespace
}  // namespace tile2cu
