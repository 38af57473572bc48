// Scans, ct.reduce with a combiner, and the layout operations (spec c.8 - c.10) in sema and
// their emission.
#include <gtest/gtest.h>

#include <memory>

#include "frontend/parser.hpp"
#include "ir/printer.hpp"
#include "ir/verifier.hpp"
#include "nvcc_compile.hpp"
#include "sema/sema.hpp"
#include "support/diagnostic.hpp"
#include "tile2cu/tile2cu.hpp"

namespace tile2cu {
namespace {

// Helpers first, then a kernel that loads a (16, 32) tile of x as `t` and binds `r = expr`.
std::string kernel_with(const std::string& expr, const std::string& helpers = "") {
  return "import cuda.tile as ct\n" + helpers +
         "@ct.kernel\n"
         "def k(x, y):\n"
         "    t = ct.load(x, index=(0, 0), shape=(16, 32))\n"
         "    r = " + expr + "\n"
         "    ct.store(y, index=(0, 0), tile=ct.zeros((16, 32), dtype=y.dtype))\n";
}

const std::string kHelpers =
    "import operator\n"
    "@ct.function\n"
    "def add2(a, b):\n"
    "    return a + b\n"
    "def loop(a, b):\n"
    "    for i in range(3):\n"
    "        a = a + b\n"
    "    return a\n"
    "def to_float(a, b):\n"
    "    return a / b\n";

ir::Function specialize_source(const std::string& source, const std::string& sig) {
  auto file = std::make_shared<SourceFile>("k.py", source);
  auto module = std::make_shared<const ast::Module>(parse_module(file));
  auto scope = sema::evaluate_module(module);
  KernelSignature s = parse_signature(sig, "--sig");
  s.kernel = "k";
  ir::Function fn = sema::specialize(*scope, s);
  ir::verify(fn);
  return fn;
}

std::string type_of_r(const std::string& expr, const std::string& dtype = "float32") {
  ir::Function fn = specialize_source(kernel_with(expr, kHelpers), "x=" + dtype + "[?, ?], y=" + dtype + "[?, ?]");
  for (const ir::ValueInfo& v : fn.values)
    if (v.name == "r") return ir::type_string(v.type);
  return "<unbound>";
}

std::string failure(const std::string& expr, const std::string& dtype = "float32") {
  try {
    specialize_source(kernel_with(expr, kHelpers), "x=" + dtype + "[?, ?], y=" + dtype + "[?, ?]");
  } catch (const CompileError& e) {
    return std::string(error_kind_name(e.kind())) + ": " + e.message();
  }
  return "accepted";
}

std::string cu_of(const std::string& expr, const std::string& dtype = "float32") {
  TranspileOptions options;
  options.signatures = {"x=" + dtype + "[?, ?], y=" + dtype + "[?, ?]"};
  std::string source = kernel_with(expr, kHelpers);
  // Use r so that it is not removed as dead code.
  source.replace(source.find("tile=ct.zeros((16, 32), dtype=y.dtype)"), 38, "tile=r");
  TranspileResult result = transpile("k.py", source, options);
  return result.ok ? result.cu : "failed: " + result.diagnostics;
}

TEST(Scan, KeepsShapeAndDtype) {
  EXPECT_EQ(type_of_r("ct.cumsum(t, axis=1)"), "tile<f32, 16x32>");
  EXPECT_EQ(type_of_r("ct.cumsum(t, axis=1)", "bfloat16"), "tile<bf16, 16x32>");  // no widening
  EXPECT_EQ(type_of_r("ct.cumprod(t, axis=0, reverse=True)", "int8"), "tile<i8, 16x32>");
  EXPECT_EQ(type_of_r("ct.cumsum(t > 0.0, axis=1)"), "tile<i32, 16x32>");  // bool counts as int32
  EXPECT_EQ(type_of_r("ct.scan(t, -1, add2, 0)"), "tile<f32, 16x32>");
}

TEST(Reduce, WithACombiner) {
  EXPECT_EQ(type_of_r("ct.reduce(t, 1, add2, 0.0)"), "tile<f32, 16>");
  EXPECT_EQ(type_of_r("ct.reduce(t, 0, add2, 0, keepdims=True)", "int16"), "tile<i16, 1x32>");
  EXPECT_EQ(type_of_r("ct.reduce(t, 1, ct.maximum, -1.0)"), "tile<f32, 16>");  // a ct function as the combiner
  EXPECT_EQ(type_of_r("ct.reduce(t, 1, operator.mul, 1)", "int32"), "tile<i32, 16>");
  EXPECT_NE(cu_of("ct.scan(t, 0, operator.add, 0)").find("scan_with<0>(t, [](float a, float b) { return a + b; }, 0.0f, smem)"),
            std::string::npos);
  // a lambda as the combiner
  EXPECT_EQ(type_of_r("ct.reduce(t, 1, lambda a, b: ct.maximum(a, b), -1.0)"), "tile<f32, 16>");
  EXPECT_NE(cu_of("ct.scan(t, 1, lambda p, q: p * q, 1)").find("scan_with<1>(t, [](float p, float q) { return p * q; }, 1.0f, smem)"),
            std::string::npos);
  ir::Function fn = specialize_source(kernel_with("ct.reduce(t, 1, add2, 0.0)", kHelpers), "x=float32[?, ?], y=float32[?, ?]");
  std::string ir_text = ir::print_function(fn);
  EXPECT_NE(ir_text.find("reduce axes=(1) identity=0.0"), std::string::npos) << ir_text;
  EXPECT_NE(ir_text.find("combine(%"), std::string::npos) << ir_text;
}

TEST(Scan, Errors) {
  EXPECT_NE(failure("ct.cumsum(t, axis=2)").find("out of range"), std::string::npos);
  EXPECT_EQ(failure("ct.cumsum(t, axis=1, flush_to_zero=True)"), "accepted");
  EXPECT_NE(failure("ct.cumsum(t, axis=1, flush_to_zero=True)", "int32").find("Flush to zero can only be used for float32"),
            std::string::npos);
  EXPECT_NE(failure("ct.cumprod(t, axis=1, rounding_mode=ct.RoundingMode.APPROX)").find("Rounding mode APPROX is not supported for cumprod"),
            std::string::npos);
  EXPECT_NE(failure("ct.scan(t, 1, add2, 0.5)", "int32").find("a float identity for a int32 tile"), std::string::npos);
  EXPECT_NE(failure("ct.reduce(t, 1, add2, 300)", "int8").find("does not fit in int8"), std::string::npos);
  EXPECT_NE(failure("ct.reduce(t, (0, 1), add2, 0)").find("single axis"), std::string::npos);
  EXPECT_NE(failure("ct.reduce(t, 1, loop, 0)").find("TileSyntaxError"), std::string::npos);
  EXPECT_NE(failure("ct.scan(t, 1, to_float, 1)", "int32").find("must return int32, got float32"), std::string::npos);
  EXPECT_NE(failure("ct.reduce(t, 1, 3, 0)").find("Expected a function"), std::string::npos);
  EXPECT_NE(failure("ct.reduce(t, 1, operator.neg, 0)").find("operator.neg() is not supported"), std::string::npos);
  EXPECT_NE(failure("ct.reduce(t, 1, add2, t)").find("Expected a constant scalar"), std::string::npos);
}

TEST(ShapeOps, Types) {
  EXPECT_EQ(type_of_r("ct.transpose(t)"), "tile<f32, 32x16>");
  EXPECT_EQ(type_of_r("t.transpose(0, 1)"), "tile<f32, 32x16>");
  EXPECT_EQ(type_of_r("ct.permute(t.reshape((2, 8, 32)), (2, 0, 1))"), "tile<f32, 32x2x8>");
  EXPECT_EQ(type_of_r("t.reshape((2, 2, 2, 2, 32)).permute((4, 3, 2, 1, 0))"), "tile<f32, 32x2x2x2x2>");  // rank 5
  EXPECT_EQ(type_of_r("ct.cat((t, t), axis=0)"), "tile<f32, 32x32>");
  EXPECT_EQ(failure("ct.cat((t,), axis=0)"), "accepted");  // one tile: itself
  EXPECT_EQ(type_of_r("ct.extract(t, (1, 0), shape=(8, 32))"), "tile<f32, 8x32>");
  EXPECT_EQ(type_of_r("t.extract((3, 5), ())"), "f32");
  EXPECT_EQ(type_of_r("ct.insert(t, (0, 1), ct.zeros((16, 16), dtype=ct.float32))"), "tile<f32, 16x32>");
  EXPECT_EQ(type_of_r("t.insert((2, 3), 1.5)"), "tile<f32, 16x32>");
  EXPECT_EQ(type_of_r("ct.bitcast(t, ct.uint32)"), "tile<u32, 16x32>");
  EXPECT_EQ(type_of_r("ct.pack_to_bytes(t)"), "tile<u8, 2048>");
  EXPECT_EQ(type_of_r("ct.unpack_from_bytes(ct.pack_to_bytes(t), ct.float16)"), "tile<f16, 1024>");
  EXPECT_EQ(type_of_r("ct.sum(t, axis=0)[:, None]"), "tile<f32, 32x1>");
  EXPECT_EQ(type_of_r("t[:, None, :]"), "tile<f32, 16x1x32>");
}

TEST(ShapeOps, Errors) {
  EXPECT_NE(failure("ct.transpose(t.reshape((2, 8, 32)))").find("needs axis0 and axis1"), std::string::npos);
  EXPECT_NE(failure("ct.transpose(t, 0)").find("both be specified or both be None"), std::string::npos);
  EXPECT_NE(failure("ct.transpose(ct.sum(t, axis=0))").find("fewer than 2 dimensions"), std::string::npos);
  EXPECT_NE(failure("ct.permute(t, (0, 0))").find("not a permutation"), std::string::npos);
  EXPECT_NE(failure("ct.cat((t, t, t), axis=0)").find("supports at most 2 tiles"), std::string::npos);
  EXPECT_NE(failure("ct.cat((t, ct.sum(t, axis=1, keepdims=True)), axis=1)").find("Result tile shape must be power of 2"), std::string::npos);
  EXPECT_NE(failure("ct.cat((t, t), axis=1)", "float32").find("accepted"), std::string::npos);
  EXPECT_NE(failure("ct.extract(t, (2, 0), shape=(8, 32))").find("Index 2 out of bounds at dimension #0: valid range is [0, 2)"), std::string::npos);
  EXPECT_NE(failure("ct.extract(t, (0, 0), shape=(6, 32))").find("power of two"), std::string::npos);
  EXPECT_NE(failure("ct.insert(t, (0, 0), t.astype(ct.float16))").find("Cannot insert a tile of dtype float16 into a tile of dtype float32"), std::string::npos);
  EXPECT_NE(failure("ct.bitcast(t, ct.float16)").find("bit widths differ"), std::string::npos);
  EXPECT_NE(failure("ct.bitcast(t > 0.0, ct.int8)").find("bool"), std::string::npos);
  EXPECT_NE(failure("ct.unpack_from_bytes(t, ct.int8)").find("unpack_from_bytes requires uint8 tile"), std::string::npos);
}

// test_pack_unpack.py and test_insert.py match cuTile's texts.
TEST(ShapeOps, ErrorsInCuTilesWords) {
  auto has = [](const std::string& error, const std::string& text) {
    return error.find(text) != std::string::npos ? ::testing::AssertionSuccess()
                                                 : ::testing::AssertionFailure() << error;
  };
  const std::string bytes = "ct.pack_to_bytes(t)";
  EXPECT_TRUE(has(failure("ct.pack_to_bytes(t > 0.0)"), "pack_to_bytes from a bool_ tile"));
  EXPECT_TRUE(has(failure("ct.unpack_from_bytes(" + bytes + ", ct.bool_)"), "unpack_from_bytes to a bool_ tile"));
  EXPECT_TRUE(has(failure("ct.unpack_from_bytes(" + bytes + ".reshape((64, 32)), ct.int8)"),
                  "unpack_from_bytes requires a 1D tile"));
  EXPECT_TRUE(has(failure("ct.unpack_from_bytes(ct.extract(" + bytes + ", (0,), shape=(2,)), ct.int32)"),
                  "not divisible by 32"));
  EXPECT_TRUE(has(failure("ct.insert(t, (0, 0), ct.zeros((32,), dtype=ct.float32))"), "does not match the tile rank"));
  EXPECT_TRUE(has(failure("ct.insert(t, (0, 0), ct.zeros((32, 32), dtype=ct.float32))"), "not divisible by"));
}

TEST(ShapeOps, EmitsRuntimeCalls) {
  EXPECT_NE(cu_of("ct.transpose(ct.transpose(t))").find("permute<Layout_32x16, Order<1, 0>>(t, smem)"), std::string::npos);
  EXPECT_NE(cu_of("ct.cumsum(t, axis=1, reverse=True)").find("cumsum<1, true>(t, smem)"), std::string::npos);
  EXPECT_NE(cu_of("ct.scan(t, 1, add2, 0)").find("scan_with<1>(t, [](float a, float b) { return a + b; }, 0.0f, smem)"),
            std::string::npos);
  EXPECT_NE(cu_of("ct.cat((ct.extract(t, (0, 0), shape=(16, 16)), ct.extract(t, (0, 1), shape=(16, 16))), axis=1)")
                .find("cat<Layout_16x32, 1>("),
            std::string::npos);
  EXPECT_NE(cu_of("t.insert((2, 3), 1.5)").find("insert_element(t, 1.5f, {2, 3})"), std::string::npos);
  EXPECT_NE(cu_of("ct.bitcast(ct.bitcast(t, ct.int32), ct.float32)").find("bitcast<float>(bitcast<int32_t>(t))"),
            std::string::npos);
}

TEST(ShapeOps, LargeScratchIsDynamicSharedMemory) {
  TranspileOptions options;
  options.signatures = {"x=float32[?, ?], y=float32[?, ?]"};
  const std::string source =
      "import cuda.tile as ct\n"
      "@ct.kernel\n"
      "def k(x, y):\n"
      "    t = ct.load(x, index=(0, 0), shape=(1, 32768))\n"
      "    ct.store(y, index=(0, 0), tile=ct.cumsum(t, axis=1))\n";
  TranspileResult r = transpile("k.py", source, options);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_NE(r.cu.find("extern __shared__ __align__(128) unsigned char smem[];"), std::string::npos) << r.cu;
  EXPECT_NE(r.cu.find("constexpr int kSmemBytes = 135200;"), std::string::npos) << r.cu;
  EXPECT_NE(r.cu.find("cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes)"), std::string::npos) << r.cu;
  EXPECT_NE(r.cu.find("kThreads, kSmemBytes, stream>>>"), std::string::npos) << r.cu;
}

// test_pack_unpack.py::test_pack_unpack_roundtrip_0d: a 0-d tile packs as its one element's
// bytes, and they unpack and reshape back to it (was "Expected a tile of rank 1 or more").
TEST(ShapeOps, ZeroDimensionalTilePacksToBytes) {
  TranspileOptions options;
  options.signatures = {"x=float16[], y=float16[]", "x=float64[], y=float64[]", "x=int8[], y=int8[]"};
  options.header_name = "k.cuh";
  const std::string source =
      "import cuda.tile as ct\n"
      "@ct.kernel\n"
      "def k(x, y):\n"
      "    tx = ct.gather(x, ())\n"
      "    packed = ct.pack_to_bytes(tx)\n"
      "    ty = ct.unpack_from_bytes(packed, x.dtype)\n"
      "    ty = ty.reshape(())\n"
      "    ct.scatter(y, (), ty)\n";
  TranspileResult r = transpile("k.py", source, options);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_EQ(type_of_r("ct.pack_to_bytes(ct.sum(t))"), "tile<u8, 4>");
  EXPECT_EQ(type_of_r("ct.unpack_from_bytes(ct.pack_to_bytes(ct.sum(t)), ct.float32)"), "tile<f32, 1>");
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_90a"), 0) << r.cu;
}

}  // namespace
}  // namespace tile2cu
