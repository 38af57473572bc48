// ct.reduce / ct.scan over a tuple of tiles (cuTile: the tiles broadcast to one shape, a tuple of
// identities, a combiner of 2N scalars returning N): one Reduce / Scan op of N operands, emitted
// as reduce_with / scan_with over the tiles zipped into one tile of Values<...>. The kernels are
// cuTile's own tests (test_reduction.py, test_scan.py), and nvcc builds each for sm_80 and sm_90a.
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

TranspileResult transpile_kernel(const std::string& source, const std::string& sig) {
  TranspileOptions options;
  options.signatures = {sig};
  options.header_name = "k.cuh";
  return transpile("k.py", source, options);
}

std::string ir_of(const std::string& source, const std::string& sig) {
  auto file = std::make_shared<SourceFile>("k.py", source);
  auto module = std::make_shared<const ast::Module>(parse_module(file));
  auto scope = sema::evaluate_module(module);
  KernelSignature s = parse_signature(sig, "--sig");
  s.kernel = "kernel";
  ir::Function fn = sema::specialize(*scope, s);
  ir::verify(fn);
  return ir::print_function(fn);
}

void expect_builds(const TranspileResult& r) {
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_80"), 0) << r.cu;
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_90a"), 0) << r.cu;
}

const char* kMinimumWithIndex =
    "import cuda.tile as ct\n"
    "def minimum_with_index(a_val, a_idx, b_val, b_idx):\n"
    "    lt = a_val < b_val\n"
    "    eq = a_val == b_val\n"
    "    mask = lt | (eq & (a_idx < b_idx))\n"
    "    return ct.where(mask, a_val, b_val), ct.where(mask, a_idx, b_idx)\n"
    "@ct.kernel\n"
    "def kernel(x, y, yi):\n"
    "    xt = ct.load(x, (0, 0), (4, 8))\n"
    "    idx = ct.arange(8, dtype=ct.int32)\n"
    "    yt, yit = ct.reduce((xt, idx), 1, minimum_with_index, (2**31-1, 0))\n"
    "    ct.store(y, (0,), yt)\n"
    "    ct.store(yi, (0,), yit)\n";
const char* kMinimumWithIndexSig = "x=int32[?, ?], y=int32[?], yi=int32[?]";

// test_reduction.py::test_custom_reduction_minimum_with_index: the (8,) index tile broadcasts to
// the (4, 8) values; one op, two results, the combiner's four arguments named as in Python.
TEST(TupleCombiner, ReduceMinimumWithIndex) {
  const std::string ir = ir_of(kMinimumWithIndex, kMinimumWithIndexSig);
  EXPECT_NE(ir.find("%19.yt, %20.yit = reduce axes=(1) identity=(2147483647, 0) %2.xt, %7 : tile<i32, 4>, tile<i32, 4> "
                    "combine(%8.a_val, %9.a_idx, %10.b_val, %11.b_idx)"),
            std::string::npos)
      << ir;
  EXPECT_NE(ir.find("%7 = broadcast %6 : tile<i32, 4x8>"), std::string::npos) << ir;
  EXPECT_NE(ir.find("yield %17, %18"), std::string::npos) << ir;
  TranspileResult r = transpile_kernel(kMinimumWithIndex, kMinimumWithIndexSig);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_NE(r.cu.find("const auto yt_yit = reduce_with<Axes<1>, Layout_4>(zip(xt, broadcast_to<Layout_4x8>("), std::string::npos) << r.cu;
  EXPECT_NE(r.cu.find("[](int32_t a_val, int32_t a_idx, int32_t b_val, int32_t b_idx) -> Values<int32_t, int32_t> {"),
            std::string::npos) << r.cu;
  EXPECT_NE(r.cu.find("return {where(mask, a_val, b_val), where(mask, a_idx, b_idx)};"), std::string::npos) << r.cu;
  EXPECT_NE(r.cu.find("}, {2147483647, 0}, smem);"), std::string::npos) << r.cu;
  EXPECT_NE(r.cu.find("const auto yt = field<0>(yt_yit);"), std::string::npos) << r.cu;
  EXPECT_NE(r.cu.find("const auto yit = field<1>(yt_yit);"), std::string::npos) << r.cu;
  // 32 elements, 4 outputs of one Values<int32_t, int32_t> (8 bytes) each; no warp partials.
  EXPECT_NE(r.cu.find("smem_of_blocks[kBlocksPerCta][288]"), std::string::npos) << r.cu;
  expect_builds(r);
}

// test_reduction.py::test_custom_reduction_welford: three float tiles to three scalars (the
// whole-tile path), the third result unread and not declared.
TEST(TupleCombiner, ReduceWelford) {
  const std::string source =
      "import cuda.tile as ct\n"
      "@ct.kernel\n"
      "def kernel(x, w, y):\n"
      "    def combine(mean_a, m2_a, weight_a, mean_b, m2_b, weight_b):\n"
      "        delta = mean_b - mean_a\n"
      "        new_weight = weight_a + weight_b\n"
      "        wb_normalized = ct.where(new_weight == 0, 0, weight_b / new_weight)\n"
      "        new_mean = mean_a + delta * wb_normalized\n"
      "        new_m2 = m2_a + m2_b + delta * delta * weight_a * wb_normalized\n"
      "        return new_mean, new_m2, new_weight\n"
      "    tx = ct.load(x, (0,), 1024)\n"
      "    tw = ct.load(w, (0,), 1024)\n"
      "    tm2 = ct.zeros((1024,), dtype=tx.dtype)\n"
      "    mean, m2, _ = ct.reduce((tx, tm2, tw), 0, combine, (0, 0, 0))\n"
      "    ct.scatter(y, 0, mean)\n"
      "    ct.scatter(y, 1, m2)\n";
  const std::string sig = "x=float32[?], w=float32[?], y=float32[?]";
  const std::string ir = ir_of(source, sig);
  EXPECT_NE(ir.find("reduce axes=(0) identity=(0.0, 0.0, 0.0) %"), std::string::npos) << ir;
  EXPECT_NE(ir.find(" : f32, f32, f32 combine("), std::string::npos) << ir;
  TranspileResult r = transpile_kernel(source, sig);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_NE(r.cu.find("const auto mean_m2 = reduce_with<Axes<0>>(zip(tx, tm2, tw), [](float mean_a, float m2_a, "
                      "float weight_a, float mean_b, float m2_b, float weight_b) -> Values<float, float, float> {"),
            std::string::npos) << r.cu;
  EXPECT_NE(r.cu.find("}, {0.0f, 0.0f, 0.0f}, smem);"), std::string::npos) << r.cu;
  EXPECT_NE(r.cu.find("const auto m2 = field<1>(mean_m2);"), std::string::npos) << r.cu;
  EXPECT_EQ(r.cu.find("field<2>"), std::string::npos) << r.cu;
  // A scalar result: one Values<float, float, float> (12 bytes) per warp of 256 threads.
  EXPECT_NE(r.cu.find("__shared__ alignas(16) unsigned char smem[96];"), std::string::npos) << r.cu;
  expect_builds(r);
}

// test_scan.py::test_scan_four_element_tuple: four (64, 64) tiles, float and int32 mixed; the
// scratch (padded tile of 16-byte Values plus one per warp) is over 48 KiB, so dynamic.
TEST(TupleCombiner, ScanFourTiles) {
  const std::string source =
      "import cuda.tile as ct\n"
      "shape = (64, 64)\n"
      "@ct.kernel\n"
      "def kernel(x, y, z, w, out_sum, out_prod, out_max, out_xor):\n"
      "    xt = ct.load(x, (0, 0), shape)\n"
      "    yt = ct.load(y, (0, 0), shape)\n"
      "    zt = ct.load(z, (0, 0), shape)\n"
      "    wt = ct.load(w, (0, 0), shape)\n"
      "    def combine(prev_sum, prev_prod, prev_max, prev_xor, curr_a, curr_b, curr_c, curr_d):\n"
      "        return (\n"
      "            prev_sum + curr_a,\n"
      "            prev_prod * curr_b,\n"
      "            ct.maximum(prev_max, curr_c),\n"
      "            ct.bitwise_xor(prev_xor, curr_d),\n"
      "        )\n"
      "    cumsum_out, cumprod_out, cummax_out, cumxor_out = ct.scan(\n"
      "        (xt, yt, zt, wt), axis=1, func=combine,\n"
      "        identity=(0.0, 1.0, float(\"-inf\"), 0),\n"
      "    )\n"
      "    ct.store(out_sum, (0, 0), cumsum_out)\n"
      "    ct.store(out_prod, (0, 0), cumprod_out)\n"
      "    ct.store(out_max, (0, 0), cummax_out)\n"
      "    ct.store(out_xor, (0, 0), cumxor_out)\n";
  const std::string sig =
      "x=float32[?, ?], y=float32[?, ?], z=float32[?, ?], w=int32[?, ?], out_sum=float32[?, ?], "
      "out_prod=float32[?, ?], out_max=float32[?, ?], out_xor=int32[?, ?]";
  const std::string ir = ir_of(source, sig);
  EXPECT_NE(ir.find("scan axis=1 identity=(0.0, 1.0, -inf, 0) %"), std::string::npos) << ir;
  EXPECT_NE(ir.find(" : tile<f32, 64x64>, tile<f32, 64x64>, tile<f32, 64x64>, tile<i32, 64x64> combine("),
            std::string::npos) << ir;
  TranspileResult r = transpile_kernel(source, sig);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_NE(r.cu.find("scan_with<1>(zip(xt, yt, zt, wt), [](float prev_sum, float prev_prod, float prev_max, "
                      "int32_t prev_xor, float curr_a, float curr_b, float curr_c, int32_t curr_d) -> "
                      "Values<float, float, float, int32_t> { return {prev_sum + curr_a, prev_prod * curr_b, "
                      "maximum(prev_max, curr_c), prev_xor ^ curr_d}; }, {0.0f, 1.0f, -INFINITY, 0}, smem);"),
            std::string::npos) << r.cu;
  EXPECT_NE(r.cu.find("const auto cumxor_out = field<3>(cumsum_out_cumprod_out_cummax_out_cumxor_out);"),
            std::string::npos) << r.cu;
  // (4096 + 4096 / 32) * 16 bytes, then 8 warps' 16.
  EXPECT_NE(r.cu.find("67712"), std::string::npos) << r.cu;
  expect_builds(r);
}

// test_scan.py::test_scan_two_element_tuple_broadcastable_shapes: a (16,) tile and a (64, 16)
// one scan as two (64, 16) tiles; axis=-1 is axis 1.
TEST(TupleCombiner, ScanBroadcastsTheTiles) {
  const std::string source =
      "import cuda.tile as ct\n"
      "@ct.kernel\n"
      "def kernel(x, w, out_a, out_b):\n"
      "    xt = ct.load(x, (0,), (16,))\n"
      "    wt = ct.load(w, (0, 0), (64, 16))\n"
      "    def combine(prev_a, prev_b, curr_a, curr_b):\n"
      "        return (prev_a + curr_a, prev_b + curr_b)\n"
      "    cumsum_a, cumsum_b = ct.scan((xt, wt), axis=-1, func=combine, identity=(0, 0))\n"
      "    ct.store(out_a, (0, 0), cumsum_a)\n"
      "    ct.store(out_b, (0, 0), cumsum_b)\n";
  const std::string sig = "x=int32[?], w=int32[?, ?], out_a=int32[?, ?], out_b=int32[?, ?]";
  const std::string ir = ir_of(source, sig);
  EXPECT_NE(ir.find(".cumsum_a, %"), std::string::npos) << ir;
  EXPECT_NE(ir.find("scan axis=1 identity=(0, 0) %"), std::string::npos) << ir;
  EXPECT_NE(ir.find(" : tile<i32, 64x16>, tile<i32, 64x16> combine("), std::string::npos) << ir;
  TranspileResult r = transpile_kernel(source, sig);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_NE(r.cu.find("scan_with<1>(zip(broadcast_to<Layout_64x16>(reshape<Layout_1x16>(xt, smem), smem), wt), "
                      "[](int32_t prev_a, int32_t prev_b, int32_t curr_a, int32_t curr_b) -> Values<int32_t, int32_t> "
                      "{ return {prev_a + curr_a, prev_b + curr_b}; }, {0, 0}, smem);"),
            std::string::npos) << r.cu;
  expect_builds(r);
}

// The scratch of a tuple reduction holds Values<int8_t, double, int8_t> as C++ lays it out: the
// nested rest (double, int8_t) is 16 bytes aligned to 8, so 24 in all, not 10 or 16
// (tests/runtime/values_test.cu checks sizeof): 512 * 24 + 16 * 24 + 8 * 24 bytes.
TEST(TupleCombiner, ScratchFollowsTheValuesLayout) {
  const std::string source =
      "import cuda.tile as ct\n"
      "def pick(a_flag, a_val, a_n, b_flag, b_val, b_n):\n"
      "    return a_flag | b_flag, a_val + b_val, ct.maximum(a_n, b_n)\n"
      "@ct.kernel\n"
      "def kernel(f, v, y, z):\n"
      "    ft = ct.load(f, (0, 0), (16, 32))\n"
      "    vt = ct.load(v, (0, 0), (16, 32))\n"
      "    flags, total, most = ct.reduce((ft, vt, ft), 1, pick, (0, 0.0, -128))\n"
      "    ct.store(z, (0,), flags + most)\n"
      "    ct.store(y, (0,), total)\n";
  TranspileResult r = transpile_kernel(source, "f=int8[?, ?], v=float64[?, ?], y=float64[?], z=int8[?]");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_NE(r.cu.find("-> Values<int8_t, double, int8_t>"), std::string::npos) << r.cu;
  EXPECT_NE(r.cu.find("{int8_t(0), 0.0, int8_t(-128)}, smem)"), std::string::npos) << r.cu;
  EXPECT_NE(r.cu.find("__shared__ alignas(16) unsigned char smem[12864];"), std::string::npos) << r.cu;
  expect_builds(r);
}

// A tuple of one tile, and keepdims over a tuple; a tuple over a one-element axis is the tiles.
TEST(TupleCombiner, ShapesAndOneElementAxes) {
  const std::string head =
      "import cuda.tile as ct\n"
      "def add(a, b):\n"
      "    return (a + b,)\n"
      "def add2(a, c, b, d):\n"
      "    return a + b, c + d\n"
      "@ct.kernel\n"
      "def kernel(x, y):\n"
      "    t = ct.load(x, (0, 0), (16, 32))\n";
  const std::string sig = "x=float32[?, ?], y=float32[?, ?]";
  auto types_of = [&](const std::string& body) {
    const std::string ir = ir_of(head + body + "    ct.store(y, (0, 0), ct.zeros((16, 32), dtype=ct.float32))\n", sig);
    const size_t at = ir.find(" = reduce ");
    const size_t scan_at = ir.find(" = scan ");
    const size_t op = at != std::string::npos ? at : scan_at;
    if (op == std::string::npos) return std::string("no op");
    const size_t colon = ir.find(" : ", op), end = ir.find(" combine(", op);
    return ir.substr(colon + 3, end - colon - 3);
  };
  EXPECT_EQ(types_of("    (r,) = ct.reduce((t,), 1, add, (0,))\n"), "tile<f32, 16>");
  EXPECT_EQ(types_of("    r, s = ct.reduce((t, ct.ones((16, 1), dtype=ct.int32)), 1, add2, (0, 0), keepdims=True)\n"),
            "tile<f32, 16x1>, tile<i32, 16x1>");
  EXPECT_EQ(types_of("    r, s = ct.scan((t, 1.0), 0, add2, (0, 0))\n"), "tile<f32, 16x32>, tile<f32, 16x32>");
  EXPECT_EQ(types_of("    r, s = ct.reduce((ct.reshape(t, (16, 32, 1)), ct.reshape(t, (16, 32, 1))), 2, add2, (0, 0))\n"), "no op");
}

TEST(TupleCombiner, Errors) {
  auto failure = [](const std::string& body) -> std::string {
    const std::string source =
        "import cuda.tile as ct\n"
        "def add2(a, c, b, d):\n"
        "    return a + b, c + d\n"
        "def one(a, c, b, d):\n"
        "    return a + b\n"
        "def three(a, c, b, d):\n"
        "    return a, b, c\n"
        "def wide(a, c, b, d):\n"
        "    return a + b, (c + d) * 0.5\n"
        "@ct.kernel\n"
        "def kernel(x, y):\n"
        "    t = ct.load(x, (0, 0), (16, 32))\n"
        "    i = ct.load(y, (0, 0), (16, 32))\n" + body;
    try {
      ir_of(source, "x=float32[?, ?], y=int32[?, ?]");
    } catch (const CompileError& e) {
      return std::string(error_kind_name(e.kind())) + ": " + e.message();
    }
    return "accepted";
  };
  EXPECT_EQ(failure("    a, b = ct.reduce((t, i), 1, add2, (0, 0))\n"), "accepted");
  EXPECT_NE(failure("    a, b = ct.reduce((t, i), 1, add2, 0)\n").find("Expected a tuple of 2 constant scalars, one per tile"),
            std::string::npos);
  EXPECT_NE(failure("    a, b = ct.scan((t, i), 1, add2, (0, 0, 0))\n").find("Expected a tuple of 2 constant scalars"),
            std::string::npos);
  EXPECT_NE(failure("    a, b = ct.scan((t, i), 1, add2, (0, 0.5))\n").find("a float identity for a int32 tile"),
            std::string::npos);
  EXPECT_NE(failure("    a, b = ct.reduce((t, i), 1, one, (0, 0))\n").find("must return a tuple of 2 scalars"),
            std::string::npos);
  EXPECT_NE(failure("    a, b = ct.reduce((t, i), 1, three, (0, 0))\n").find("must return a tuple of 2 scalars"),
            std::string::npos);
  EXPECT_NE(failure("    a, b = ct.reduce((t, i), 1, wide, (0, 0))\n").find("must return int32 (item 1), got float32"),
            std::string::npos);
  EXPECT_NE(failure("    a, b = ct.reduce((t, ct.ones((8,), dtype=ct.int32)), 1, add2, (0, 0))\n").find("TileTypeError"),
            std::string::npos);
  EXPECT_NE(failure("    a = ct.reduce((), 1, add2, ())\n").find("Expected a tile or a non-empty tuple of tiles"),
            std::string::npos);
  EXPECT_NE(failure("    a = ct.cumsum((t, i), 1)\n").find("TileTypeError: Invalid argument #1 of cumsum(): Expected a tile, but"),
            std::string::npos);
}

}  // namespace
}  // namespace tile2cu
