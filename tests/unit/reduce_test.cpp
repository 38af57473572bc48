// Reductions in sema (ct.sum / prod / max / min / argmax / argmin, spec c.8) and their emission.
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

// A kernel that loads a (16, 32) tile of x, applies `expr` to it as `t` and binds `r`.
std::string kernel_with(const std::string& expr) {
  return "import cuda.tile as ct\n"
         "@ct.kernel\n"
         "def k(x, y):\n"
         "    t = ct.load(x, index=(0, 0), shape=(16, 32))\n"
         "    r = " + expr + "\n"
         "    ct.store(y, index=(0, 0), tile=ct.zeros((16, 32), dtype=y.dtype))\n";
}

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

// The type of the value bound to `r`, printed.
std::string type_of_r(const std::string& expr, const std::string& dtype = "float32") {
  ir::Function fn = specialize_source(kernel_with(expr), "x=" + dtype + "[?, ?], y=" + dtype + "[?, ?]");
  // The last one: a keepdims-over-everything result is a splat whose scalar shares the name.
  for (auto v = fn.values.rbegin(); v != fn.values.rend(); ++v)
    if (v->name == "r") return ir::type_string(v->type);
  return "<unbound>";
}

TEST(Reduce, ShapesFollowAxisAndKeepdims) {
  EXPECT_EQ(type_of_r("ct.sum(t)"), "f32");
  EXPECT_EQ(type_of_r("ct.sum(t, axis=1)"), "tile<f32, 16>");
  EXPECT_EQ(type_of_r("ct.sum(t, axis=1, keepdims=True)"), "tile<f32, 16x1>");
  EXPECT_EQ(type_of_r("ct.max(t, axis=0, keepdims=True)"), "tile<f32, 1x32>");
  EXPECT_EQ(type_of_r("ct.min(t, axis=-1)"), "tile<f32, 16>");
  EXPECT_EQ(type_of_r("ct.prod(t, axis=(0, 1), keepdims=True)"), "tile<f32, 1x1>");
}

TEST(Reduce, NoWideningAndIntegerIndices) {
  EXPECT_EQ(type_of_r("ct.sum(t, axis=1)", "bfloat16"), "tile<bf16, 16>");  // accumulates in bf16
  EXPECT_EQ(type_of_r("ct.argmax(t, axis=1)", "float16"), "tile<i32, 16>");
  EXPECT_EQ(type_of_r("ct.argmin(t)", "int8"), "i32");
  EXPECT_EQ(type_of_r("ct.sum(t > 0.0)"), "i32");  // bool counts as int32
}

TEST(Reduce, OneElementAxesAreNoOps) {
  ir::Function fn = specialize_source(kernel_with("ct.sum(ct.reshape(t, (16, 32, 1)), axis=2)"),
                                      "x=float32[?, ?], y=float32[?, ?]");
  std::string ir = ir::print_function(fn);
  EXPECT_EQ(ir.find("reduce"), std::string::npos) << ir;
}

TEST(Reduce, Errors) {
  auto failure = [](const std::string& expr) -> std::string {
    try {
      specialize_source(kernel_with(expr), "x=float32[?, ?], y=float32[?, ?]");
    } catch (const CompileError& e) {
      return std::string(error_kind_name(e.kind())) + ": " + e.message();
    }
    return "accepted";
  };
  EXPECT_NE(failure("ct.sum(t, axis=(1, 1))").find("Repeated reduction axis"), std::string::npos);
  EXPECT_NE(failure("ct.sum(t, axis=2)").find("out of range"), std::string::npos);
  EXPECT_NE(failure("ct.argmax(t, axis=(0, 1))").find("single axis"), std::string::npos);
  EXPECT_EQ(failure("ct.sum(t, flush_to_zero=True)"), "accepted");
  EXPECT_NE(failure("ct.sum(t, rounding_mode=ct.RoundingMode.FULL)").find("Rounding mode FULL is not supported for sum"),
            std::string::npos);
  EXPECT_NE(failure("ct.max(t, flush_to_zero=t)").find("TileTypeError"), std::string::npos);
  EXPECT_NE(failure("ct.sum(t, axis=t)").find("TileTypeError"), std::string::npos);
}

TEST(Reduce, EmitsRuntimeCallsWithTheDestinationLayout) {
  TranspileOptions options;
  options.signatures = {"x=float32[?, ?], y=float32[?, ?]"};
  const std::string source =
      "import cuda.tile as ct\n"
      "@ct.kernel\n"
      "def k(x, y):\n"
      "    t = ct.load(x, index=(0, 0), shape=(16, 32))\n"
      "    ct.store(y, index=(0, 0), tile=t - ct.sum(t, axis=1, keepdims=True) + ct.max(t))\n";
  TranspileResult r = transpile("k.py", source, options);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_NE(r.cu.find("reduce_sum<Axes<1>, Layout_16x1>(t, smem)"), std::string::npos) << r.cu;
  EXPECT_NE(r.cu.find("reduce_max<Axes<0, 1>>(t, smem)"), std::string::npos) << r.cu;
  EXPECT_NE(r.cu.find("__shared__ alignas(16) unsigned char smem["), std::string::npos) << r.cu;
}

// test_reduction.py::test_custom_reduction_with_capture: a combiner reading a kernel variable
// becomes a lambda that captures it (a capture-less one is C++ nvcc rejects).
TEST(Reduce, CombinerReadingAKernelVariableCaptures) {
  TranspileOptions options;
  options.signatures = {"x=int32[?, ?], p=int32[], y=int32[?]"};
  options.header_name = "k.cuh";
  const std::string source =
      "import cuda.tile as ct\n"
      "@ct.kernel\n"
      "def k(x, p, y):\n"
      "    modulo = ct.gather(p, ())\n"
      "    t = ct.load(x, (0, 0), (16, 16))\n"
      "    ct.store(y, (0,), ct.reduce(t, -1, lambda a, b: (a + b) % modulo, 0))\n"
      "    ct.store(y, (0,), ct.reduce(t, -1, lambda a, b: a + b, 0))\n";
  TranspileResult r = transpile("k.py", source, options);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_NE(r.cu.find("[&](int32_t a, int32_t b) { return mod(a + b, modulo); }"), std::string::npos) << r.cu;
  EXPECT_NE(r.cu.find("[](int32_t a_2, int32_t b_2) { return a_2 + b_2; }"), std::string::npos) << r.cu;
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_90a"), 0) << r.cu;
}

// test_reduction.py::test_reduce_argmaxmin_all_axes: argmax over a whole 512 x 128 tile folds in
// registers, value and index, as ct.max does; staging the tile with its indices in shared memory
// took 1 MiB for int64 (512 KiB for int8), which no GPU gives a block, and the launch was refused.
// nvcc builds a 64 x 64 tile of the same code: the 512 x 128 one takes it about 7 minutes.
TEST(Reduce, WholeTileArgmaxFoldsInRegisters) {
  TranspileOptions options;
  options.signatures = {"x=int64[?, ?], y=int32[?, ?]", "x=float16[?, ?], y=int32[?, ?]"};
  options.header_name = "k.cuh";
  for (const char* shape : {"(512, 128)", "(64, 64)"}) {
    const std::string source =
        "import cuda.tile as ct\n"
        "@ct.kernel\n"
        "def k(x, y):\n"
        "    t = ct.load(x, index=(0, 0), shape=" + std::string(shape) + ")\n"
        "    i = ct.argmax(t, axis=None, keepdims=True)\n"
        "    j = ct.argmin(t, axis=None)\n"
        "    ct.store(y, index=(0, 0), tile=i + j)\n";
    TranspileResult r = transpile("k.py", source, options);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_NE(r.cu.find("argmax<Axes<0, 1>>(t, smem)"), std::string::npos) << r.cu;
    // One Indexed<int64_t> (16 bytes) for each of the 256 threads' 8 warps, whatever the tile.
    EXPECT_NE(r.cu.find("__shared__ alignas(16) unsigned char smem[128];"), std::string::npos) << r.cu;
    EXPECT_EQ(r.cu.find("kSmemBytes"), std::string::npos) << r.cu;
    if (std::string(shape) == "(512, 128)") continue;
    if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
    EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_90a"), 0) << r.cu;
  }
}

}  // namespace
}  // namespace tile2cu
