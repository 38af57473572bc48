// The CUDA emitter: C++ literals for every dtype, the layout plan, and `transpile` end to end.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "emit/cuda_emitter.hpp"
#include "emit/kernel_body.hpp"
#include "emit/layout_plan.hpp"
#include "frontend/parser.hpp"
#include "nvcc_compile.hpp"
#include "ir/printer.hpp"
#include "ir/verifier.hpp"
#include "sema/sema.hpp"
#include "sema/signature.hpp"
#include "support/diagnostic.hpp"
#include "tile2cu/tile2cu.hpp"
#include "text_match.hpp"

namespace tile2cu {
namespace {

using ir::Literal;

std::string lit(double d, DType t) { return cpp_literal(Literal{d}, t); }
std::string lit(__int128 i, DType t) { return cpp_literal(Literal{i}, t); }
std::string lit(bool b, DType t) { return cpp_literal(Literal{b}, t); }

const double kInf = std::numeric_limits<double>::infinity();
const double kNan = std::numeric_limits<double>::quiet_NaN();

// ---- cpp_literal ------------------------------------------------------------------------------

TEST(CppLiteral, Float32) {
  EXPECT_EQ(lit(1.5, DType::Float32), "1.5f");
  EXPECT_EQ(lit(-0.25, DType::Float32), "-0.25f");
  EXPECT_EQ(lit(2.0, DType::Float32), "2.0f");      // never "2f", which is no C++ literal
  EXPECT_EQ(lit(__int128(3), DType::Float32), "3.0f");
  EXPECT_EQ(lit(0.1, DType::Float32), "0.1f");      // shortest float spelling, not 0.100000001
  EXPECT_EQ(lit(1e-5, DType::Float32), "1e-05f");
  EXPECT_EQ(lit(true, DType::Float32), "1.0f");
}

TEST(CppLiteral, Float64) {
  EXPECT_EQ(lit(1.5, DType::Float64), "1.5");
  EXPECT_EQ(lit(2.0, DType::Float64), "2.0");
  EXPECT_EQ(lit(0.1, DType::Float64), "0.1");
  EXPECT_EQ(lit(__int128(-7), DType::Float64), "-7.0");
}

TEST(CppLiteral, HalfPrecision) {
  EXPECT_EQ(lit(1.5, DType::Float16), "__half(1.5f)");
  EXPECT_EQ(lit(2.0, DType::Float16), "__half(2.0f)");
  EXPECT_EQ(lit(-0.5, DType::BFloat16), "__nv_bfloat16(-0.5f)");
  EXPECT_EQ(lit(__int128(1), DType::BFloat16), "__nv_bfloat16(1.0f)");
}

// tfloat32 is a struct around a float: its constants are floats rounded by convert<> (an int in
// its constructor did not compile: cuTile's test_astile.py::test_astile_tf32_f4_const[tf32]).
TEST(CppLiteral, TFloat32) {
  EXPECT_EQ(lit(__int128(0), DType::TFloat32), "convert<tfloat32>(0.0f)");
  EXPECT_EQ(lit(1.5, DType::TFloat32), "convert<tfloat32>(1.5f)");
}

TEST(CppLiteral, InfinityAndNan) {
  EXPECT_EQ(lit(kInf, DType::Float32), "INFINITY");
  EXPECT_EQ(lit(-kInf, DType::Float32), "-INFINITY");
  EXPECT_EQ(lit(kNan, DType::Float32), "NAN");
  EXPECT_EQ(lit(kInf, DType::Float16), "__half(INFINITY)");
  EXPECT_EQ(lit(-kInf, DType::BFloat16), "__nv_bfloat16(-INFINITY)");
  EXPECT_EQ(lit(kNan, DType::BFloat16), "__nv_bfloat16(NAN)");
  // float64 must not go through float.
  EXPECT_EQ(lit(kInf, DType::Float64), "double(INFINITY)");
  EXPECT_EQ(lit(-kInf, DType::Float64), "-double(INFINITY)");
  EXPECT_EQ(lit(kNan, DType::Float64), "double(NAN)");
}

TEST(CppLiteral, DoublesBeyondTheFloatRangeBecomeInfinity) {
  // A loose float such as 1e300 meeting a float32 tile rounds to +inf (spec b.3 / b.7); the
  // literal must be a valid C++ expression for it, e.g. INFINITY, never "inff".
  EXPECT_EQ(lit(1e300, DType::Float32), lit(kInf, DType::Float32));
  EXPECT_EQ(lit(-1e300, DType::Float32), lit(-kInf, DType::Float32));
  EXPECT_EQ(lit(1e300, DType::Float16), lit(kInf, DType::Float16));
  EXPECT_EQ(lit(-1e300, DType::BFloat16), lit(-kInf, DType::BFloat16));
  // In range for double: stays a double literal.
  EXPECT_EQ(lit(1e300, DType::Float64), "1e+300");
}

TEST(CppLiteral, Integers) {
  EXPECT_EQ(lit(__int128(5), DType::Int32), "5");
  EXPECT_EQ(lit(__int128(-5), DType::Int32), "-5");
  EXPECT_EQ(lit(__int128(INT32_MAX), DType::Int32), "2147483647");
  // -2147483648 in C++ is unary minus applied to a long: spell INT32_MIN another way.
  EXPECT_EQ(lit(__int128(INT32_MIN), DType::Int32), "int32_t(-2147483647 - 1)");
  EXPECT_EQ(lit(__int128(5), DType::Int64), "int64_t{5}");
  EXPECT_EQ(lit(__int128(-1) << 40, DType::Int64), "int64_t{-1099511627776}");
  EXPECT_EQ(lit(__int128(INT64_MIN), DType::Int64), "int64_t(-9223372036854775807ll - 1)");
  EXPECT_EQ(lit(__int128(7), DType::UInt32), "7u");
  EXPECT_EQ(lit(__int128(UINT32_MAX), DType::UInt32), "4294967295u");
  EXPECT_EQ(lit(static_cast<__int128>(UINT64_MAX), DType::UInt64), "uint64_t{18446744073709551615ull}");
  EXPECT_EQ(lit(__int128(-3), DType::Int8), "int8_t(-3)");
  EXPECT_EQ(lit(__int128(255), DType::UInt8), "uint8_t(255)");
  EXPECT_EQ(lit(__int128(-32768), DType::Int16), "int16_t(-32768)");
  EXPECT_EQ(lit(__int128(65535), DType::UInt16), "uint16_t(65535)");
}

TEST(CppLiteral, Bools) {
  EXPECT_EQ(lit(true, DType::Bool), "true");
  EXPECT_EQ(lit(false, DType::Bool), "false");
  EXPECT_EQ(lit(__int128(0), DType::Bool), "false");
  EXPECT_EQ(lit(true, DType::Int32), "1");
  EXPECT_EQ(lit(false, DType::Int64), "int64_t{0}");
}

// ---- layouts --------------------------------------------------------------------------------

ir::Function compile(const std::string& src, const std::string& sig) {
  auto file = std::make_shared<SourceFile>("k.py", "import cuda.tile as ct\n\n" + src);
  auto module = std::make_shared<const ast::Module>(parse_module(file));
  auto scope = sema::evaluate_module(module);
  KernelSignature s = parse_signature(sig, "--sig");
  s.kernel = scope->kernel_order.at(0);
  ir::Function fn = sema::specialize(*scope, s);
  ir::verify(fn);
  return fn;
}

const char* kCopy =
    "@ct.kernel\n"
    "def k(x, y, TILE: ct.Constant[int]):\n"
    "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
    "    ct.store(y, index=(ct.bid(0),), tile=t + t)\n";

const char* kCopy2d =
    "@ct.kernel\n"
    "def k(x, y, TM: ct.Constant[int], TN: ct.Constant[int]):\n"
    "    t = ct.load(x, index=(ct.bid(0), ct.bid(1)), shape=(TM, TN))\n"
    "    ct.store(y, index=(ct.bid(0), ct.bid(1)), tile=t * 2.0)\n";

TEST(LayoutPlan, F32TileOf1024Elements) {
  LayoutPlan plan = plan_layouts(compile(kCopy, "x=float32[?], y=float32[?], TILE=1024"));
  EXPECT_EQ(plan.threads, 256);
  ASSERT_EQ(plan.layouts.count(ir::Shape{1024}), 1u);
  EXPECT_EQ(plan.layout({1024}).vec, 4);  // one 16-byte access per run
  EXPECT_EQ(plan.layout({1024}).name, "Layout_1024");
  EXPECT_EQ(plan.smem_bytes, 0u);
}

TEST(LayoutPlan, F16LoadsGiveRunsOf8) {
  LayoutPlan plan = plan_layouts(compile(kCopy, "x=float16[?], y=float16[?], TILE=2048"));
  EXPECT_EQ(plan.layout({2048}).vec, 8);
  EXPECT_EQ(plan.threads, 256);
  LayoutPlan smaller = plan_layouts(compile(kCopy, "x=float16[?], y=float16[?], TILE=1024"));
  EXPECT_EQ(smaller.layout({1024}).vec, 8);
  EXPECT_EQ(smaller.threads, 128);
}

TEST(LayoutPlan, WidestMemoryTypeSetsTheRunLength) {
  // f16 in, f32 out: the f32 store sets runs of 4 for every tile (16 bytes of f32, 8 of f16),
  // so the cast stays in-thread and neither access is split.
  LayoutPlan plan = plan_layouts(compile(kCopy, "x=float16[?], y=float32[?], TILE=1024"));
  EXPECT_EQ(plan.layout({1024}).vec, 4);
  EXPECT_EQ(plan.threads, 256);
  LayoutPlan bytes = plan_layouts(compile(kCopy, "x=int8[?], y=int32[?], TILE=1024"));
  EXPECT_EQ(bytes.layout({1024}).vec, 4);  // not 16: that left 64 threads with 16 int32 each
  EXPECT_EQ(bytes.threads, 256);
  LayoutPlan wide = plan_layouts(compile(kCopy, "x=int8[?], y=float64[?], TILE=512"));
  EXPECT_EQ(wide.layout({512}).vec, 2);
  EXPECT_EQ(wide.threads, 256);
}

TEST(LayoutPlan, SmallSideTilesDoNotSetTheRunLength) {
  // bf16 tiles of 32x64 in and out, an f32 row of 64 beside them: the big tiles' bf16 sets runs
  // of 8 (16-byte accesses for them); the f32 row's runs take two accesses, once per block.
  const char* src =
      "@ct.kernel\n"
      "def k(x, b, y, TM: ct.Constant[int], TN: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0), 0), shape=(TM, TN))\n"
      "    row = ct.load(b, index=(0,), shape=(TN,))\n"
      "    ct.store(y, index=(ct.bid(0), 0), tile=(t.astype(ct.float32) + row[None, :]).astype(ct.bfloat16))\n";
  LayoutPlan plan = plan_layouts(compile(src, "x=bfloat16[?, ?], b=float32[?], y=bfloat16[?, ?], TM=32, TN=64"));
  EXPECT_EQ(plan.layout({32, 64}).vec, 8);
  EXPECT_EQ(plan.threads, 256);
}

TEST(LayoutPlan, SmallTilesRunSeveralBlocksPerCta) {
  // An element-wise kernel: one thread per 16-byte run, 256-thread CTAs (small_tiles_test.cpp).
  LayoutPlan tiny = plan_layouts(compile(kCopy, "x=float32[?], y=float32[?], TILE=16"));
  EXPECT_EQ(tiny.threads, 4);
  EXPECT_EQ(tiny.blocks_per_cta, 64);
  EXPECT_EQ(tiny.layout({16}).vec, 4);
  LayoutPlan one = plan_layouts(compile(kCopy, "x=float32[?], y=float32[?], TILE=1"));
  EXPECT_EQ(one.threads, 1);
  EXPECT_EQ(one.blocks_per_cta, 256);
  EXPECT_EQ(one.layout({1}).vec, 1);  // a run never exceeds the last dim
  LayoutPlan warp = plan_layouts(compile(kCopy, "x=float32[?], y=float32[?], TILE=128"));
  EXPECT_EQ(warp.threads, 32);
  EXPECT_EQ(warp.blocks_per_cta, 8);
  LayoutPlan big = plan_layouts(compile(kCopy, "x=float32[?], y=float32[?], TILE=256"));
  EXPECT_EQ(big.blocks_per_cta, 1);  // 64 runs: more than a warp
}

// A kernel whose block acts once (a one-element store) keeps one block per CTA.
const char* kCopyAndFlag =
    "@ct.kernel\n"
    "def k(x, y, TILE: ct.Constant[int]):\n"
    "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
    "    ct.store(y, index=(ct.bid(0),), tile=t + t)\n"
    "    ct.store(y, index=(0,), tile=1.0)\n";

TEST(LayoutPlan, SmallTilesOfOneBlockPerCtaGetAtLeastOneWarp) {
  LayoutPlan tiny = plan_layouts(compile(kCopyAndFlag, "x=float32[?], y=float32[?], TILE=16"));
  EXPECT_EQ(tiny.blocks_per_cta, 1);
  EXPECT_EQ(tiny.threads, 32);
  EXPECT_EQ(tiny.layout({16}).vec, 1);
  LayoutPlan one = plan_layouts(compile(kCopyAndFlag, "x=float32[?], y=float32[?], TILE=1"));
  EXPECT_EQ(one.threads, 32);
  EXPECT_EQ(one.layout({1}).vec, 1);
}

TEST(LayoutPlan, SmallTilesOfOneBlockPerCtaShortenRunsToFillAnSm) {
  // 128 floats are 32 runs of 4: 32-thread CTAs, of which an SM holds only 32 (1024 threads).
  // Runs of 2 give 64 threads, enough to fill it.
  LayoutPlan exact = plan_layouts(compile(kCopyAndFlag, "x=float32[?], y=float32[?], TILE=128"));
  EXPECT_EQ(exact.threads, 64);
  EXPECT_EQ(exact.layout({128}).vec, 2);
  LayoutPlan enough = plan_layouts(compile(kCopy, "x=float32[?], y=float32[?], TILE=256"));
  EXPECT_EQ(enough.threads, 64);
  EXPECT_EQ(enough.layout({256}).vec, 4);
  LayoutPlan wide = plan_layouts(compile(kCopy, "x=float64[?], y=float64[?], TILE=256"));
  EXPECT_EQ(wide.threads, 128);
  EXPECT_EQ(wide.layout({256}).vec, 2);
}

TEST(LayoutPlan, LargeTilesCapAt256Threads) {
  LayoutPlan plan = plan_layouts(compile(kCopy, "x=float32[?], y=float32[?], TILE=32768"));
  EXPECT_EQ(plan.threads, 256);
  EXPECT_EQ(plan.layout({32768}).vec, 4);
}

TEST(LayoutPlan, TwoDimensionalTiles) {
  LayoutPlan plan = plan_layouts(compile(kCopy2d, "x=float32[?, ?], y=float32[?, ?], TM=64, TN=128"));
  EXPECT_EQ(plan.threads, 256);  // one load of 8192 elements (see BigTilesAskForThreeBlocksPerSm)
  EXPECT_EQ(plan.layout({64, 128}).name, "Layout_64x128");
  EXPECT_EQ(plan.layout({64, 128}).vec, 4);
  LayoutPlan narrow = plan_layouts(compile(kCopy2d, "x=float32[?, ?], y=float32[?, ?], TM=64, TN=2"));
  EXPECT_EQ(narrow.layout({64, 2}).vec, 2);
  EXPECT_EQ(narrow.threads, 64);
}

// 256 threads holding 32 elements each of three or more loads of that size (layer norm's x, w,
// b): the plan asks for 3 blocks per SM (__launch_bounds__(256, 3)) and keeps 256 threads. One or
// two such loads, smaller and bigger tiles, and mma kernels ask nothing.
TEST(LayoutPlan, BigTilesAskForThreeBlocksPerSm) {
  auto plan_for = [](int tile) {
    return plan_layouts(compile(kCopy, "x=float32[?], y=float32[?], TILE=" + std::to_string(tile)));
  };
  const char* sum3 =
      "@ct.kernel\n"
      "def k(a, b, c, y, TILE: ct.Constant[int]):\n"
      "    t = ct.load(a, index=(ct.bid(0),), shape=(TILE,)) + ct.load(b, index=(0,), shape=(TILE,))\n"
      "    ct.store(y, index=(ct.bid(0),), tile=t + ct.load(c, index=(0,), shape=(TILE,)))\n";
  auto three_loads_plan_for = [&](int tile) {
    return plan_layouts(compile(sum3, "a=float32[?], b=float32[?], c=float32[?], y=float32[?], TILE=" +
                                          std::to_string(tile)));
  };
  for (int tile : {4096, 8192, 16384}) {
    EXPECT_EQ(plan_for(tile).threads, 256) << tile;
    EXPECT_EQ(plan_for(tile).min_blocks_per_sm, 0) << tile;
    EXPECT_EQ(three_loads_plan_for(tile).threads, 256) << tile;
  }
  EXPECT_EQ(three_loads_plan_for(4096).min_blocks_per_sm, 0);
  EXPECT_EQ(three_loads_plan_for(8192).min_blocks_per_sm, 3);
  EXPECT_EQ(three_loads_plan_for(16384).min_blocks_per_sm, 0);
  const char* mma =
      "@ct.kernel\n"
      "def k(a, b, c, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):\n"
      "    acc = ct.zeros((TM, TN), dtype=ct.float32)\n"
      "    x = ct.load(a, index=(ct.bid(0), 0), shape=(TM, TK))\n"
      "    y = ct.load(b, index=(0, ct.bid(1)), shape=(TK, TN))\n"
      "    ct.store(c, index=(ct.bid(0), ct.bid(1)), tile=ct.mma(x, y, acc))\n";
  const LayoutPlan mma_plan = plan_layouts(compile(mma, "a=float16[?, ?], b=float16[?, ?], c=float32[?, ?], TM=64, TN=128, TK=32"));
  EXPECT_EQ(mma_plan.threads, 256);
  EXPECT_EQ(mma_plan.min_blocks_per_sm, 0);
}

TEST(LayoutPlan, BroadcastAcrossThreadsNeedsScratch) {
  const char* src =
      "@ct.kernel\n"
      "def k(x, y, TM: ct.Constant[int], TN: ct.Constant[int]):\n"
      "    col = ct.load(x, index=(ct.bid(0),), shape=(TM,))\n"
      "    ct.store(y, index=(ct.bid(0), 0), tile=(col * 2.0)[:, None] + ct.zeros((TM, TN), dtype=ct.float32))\n";
  // A computed column (not a bare load, which load_broadcast reads from memory) moves through smem.
  LayoutPlan plan = plan_layouts(compile(src, "x=float32[?], y=float32[?, ?], TM=64, TN=32"));
  EXPECT_GT(plan.smem_bytes, 0u);
  EXPECT_TRUE(plan.broadcast_loads.folded.empty());
  EXPECT_EQ(plan.layouts.count(ir::Shape{64, 32}), 1u);
}

TEST(CppType, ScalarsAndTiles) {
  LayoutPlan plan = plan_layouts(compile(kCopy, "x=float32[?], y=float32[?], TILE=1024"));
  EXPECT_EQ(cpp_type({DType::Float32, {}}, plan), "float");
  EXPECT_EQ(cpp_type({DType::BFloat16, {}}, plan), "__nv_bfloat16");
  EXPECT_EQ(cpp_type({DType::Float32, {1024}}, plan), "Tile<float, Layout_1024>");
  EXPECT_EQ(cpp_type({DType::Bool, {1024}}, plan), "Tile<bool, Layout_1024>");
}

// ---- transpile end to end ---------------------------------------------------------------------

const char* kVectorAdd =
    "import cuda.tile as ct\n"
    "\n"
    "\n"
    "@ct.kernel\n"
    "def vadd(a, b, c, TILE: ct.Constant[int]):\n"
    "    block = ct.bid(0)\n"
    "    a_tile = ct.load(a, index=(block,), shape=(TILE,))\n"
    "    b_tile = ct.load(b, index=(block,), shape=(TILE,))\n"
    "    ct.store(c, index=(block,), tile=a_tile + b_tile)\n";

TranspileOptions with_sigs(std::vector<std::string> sigs) {
  TranspileOptions o;
  o.signatures = std::move(sigs);
  o.header_name = "vadd.cuh";
  return o;
}

// The big-tile rules: a tile of 8192 elements gets a copy for whole tiles on 512 threads, with its
// own layouts and thread count at launch, asking for 3 blocks per SM with two or more such loads
// (with three, the checked copy on 256 threads asks for 3 too) or 4 with one (the checked copy:
// none, 0); a note says why. A kernel's own occupancy= keeps one shape and replaces the counts,
// without the note.
TEST(Transpile, BigTileBlocksPerSmAndOccupancy) {
  auto kernel = [](const std::string& decorator, bool one_load) {
    return decorator +
           "def k(a, b, c, y, TILE: ct.Constant[int]):\n" +
           (one_load ? "    t = ct.load(a, index=(ct.bid(0),), shape=(TILE,)) * 2.0\n"
                     : "    t = ct.load(a, index=(ct.bid(0),), shape=(TILE,)) + ct.load(b, index=(0,), shape=(TILE,))\n"
                       "    t = t + ct.load(c, index=(0,), shape=(TILE,))\n") +
           "    ct.store(y, index=(ct.bid(0),), tile=t)\n";
  };
  const std::string source_head = "import cuda.tile as ct\n\n";
  const auto sigs = with_sigs({"a=float32[?], b=float32[?], c=float32[?], y=float32[?], TILE=8192"});
  TranspileResult planned = transpile("k.py", source_head + kernel("@ct.kernel\n", false), sigs);
  ASSERT_TRUE(planned.ok) << planned.diagnostics;
  EXPECT_TRUE(contains(planned.cu, "constexpr int kThreads = 256;")) << planned.cu;
  EXPECT_TRUE(contains(planned.cu, "constexpr int kWholeThreads = 512;")) << planned.cu;
  EXPECT_TRUE(contains(planned.cu, "// registers so that 3 blocks' loads are in flight on an SM together. The checked "
                                   "copy too.\n")) << planned.cu;
  EXPECT_TRUE(contains(planned.cu, "__global__ void __launch_bounds__(kTilesWhole ? kWholeThreads : kThreads, 3) k("))
      << planned.cu;
  EXPECT_TRUE(contains(planned.cu, "  constexpr int kCopyThreads = kTilesWhole ? kWholeThreads : kThreads;\n"
                                   "  using Layout_8192 = BlockedLayout<Shape<8192>, kCopyThreads, 4>;\n")) << planned.cu;
  EXPECT_TRUE(contains(planned.cu, "k<true>, k_f32_f32_f32_f32_8192::kWholeThreads, "
                                   "k_f32_f32_f32_f32_8192::k<false>, k_f32_f32_f32_f32_8192::kThreads, 0);")) << planned.cu;
  EXPECT_TRUE(contains(planned.cu, "const int threads = use_whole_copy ? k_f32_f32_f32_f32_8192::kWholeThreads : "
                                   "k_f32_f32_f32_f32_8192::kThreads;\n  kernel<<<grid, threads, 0, stream>>>(")) << planned.cu;
  TranspileResult one = transpile("k.py", source_head + kernel("@ct.kernel\n", true), sigs);
  ASSERT_TRUE(one.ok) << one.diagnostics;
  EXPECT_TRUE(contains(one.cu, "__launch_bounds__(kTilesWhole ? kWholeThreads : kThreads, kTilesWhole ? 4 : 0) k("))
      << one.cu;
  EXPECT_TRUE(contains(one.cu, "The checked copy asks for none (0).\n")) << one.cu;
  TranspileResult asked = transpile("k.py", source_head + kernel("@ct.kernel(occupancy=2)\n", false), sigs);
  ASSERT_TRUE(asked.ok) << asked.diagnostics;
  EXPECT_TRUE(contains(asked.cu, "__global__ void __launch_bounds__(kThreads, 2) k(")) << asked.cu;
  EXPECT_FALSE(contains(asked.cu, "blocks per SM")) << asked.cu;
  EXPECT_FALSE(contains(asked.cu, "kWholeThreads")) << asked.cu;
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(planned.cu, planned.cuh, "vadd.cuh"), 0) << planned.cu;
  EXPECT_EQ(testing::nvcc_compile(one.cu, one.cuh, "vadd.cuh"), 0) << one.cu;
}

// A load at a literal tile index reads the same tile in every block: its whole-tile test runs
// once (twice-loaded w, one test), right before the first statement that loads it, and the rest
// of the kernel is compiled for both answers; a load that moves with the block, and one whose
// last axis is permuted (never the whole-tile path), are left as they are.
TEST(Transpile, FixedTileLoadsTestedOnce) {
  const std::string source =
      "import cuda.tile as ct\n\n"
      "@ct.kernel\n"
      "def k(a, w, y, TILE: ct.Constant[int]):\n"
      "    t = ct.load(a, index=(ct.bid(0),), shape=(TILE,))\n"
      "    u = t * ct.load(w, index=(0,), shape=(TILE,))\n"
      "    ct.store(y, index=(ct.bid(0),), tile=u + ct.load(w, index=(0,), shape=(TILE,)))\n\n"
      "@ct.kernel\n"
      "def kt(a, y, TILE: ct.Constant[int]):\n"
      "    ct.store(y, index=(ct.bid(0), 0), tile=ct.load(a, index=(0, 0), shape=(TILE, TILE), order=(1, 0)))\n";
  TranspileResult r = transpile("k.py", source, with_sigs({"k(a=float32[?], w=float32[?], y=float32[?], TILE=1024)",
                                                            "kt(a=float32[?, ?], y=float32[?, ?], TILE=32)"}));
  ASSERT_TRUE(r.ok) << r.diagnostics;
  // (Every index here is a literal or the block index: the launcher's proof, kTilesWhole, also
  // stands for the test, and a's and y's accesses take it directly.)
  EXPECT_TRUE(contains(r.cu, "  const auto t = load<Layout_1024>(a, {int32_t(blockIdx.x)}, whole_at_launch);\n"
                             "  // Every block loads the same tile of w: whether it is whole (in bounds, aligned) is tested once,\n"
                             "  // and the rest of the kernel is compiled for both answers (tile2cu/memory.cuh).\n"
                             "  const bool fixed_tiles_whole = kTilesWhole || whole_tile<Layout_1024>(w, {0});\n"
                             "  with_whole_tiles(fixed_tiles_whole, [&](auto whole) {\n"
                             "    // u = t * ct.load(w, index=(0,), shape=(TILE,))\n")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "load<Layout_1024>(w, {0}, whole)")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "    store(y, {int32_t(blockIdx.x)}, u + load<Layout_1024>(w, {0}, whole), whole_at_launch);\n  });\n}\n"))
      << r.cu;
  // One test in all: k's two loads of w share it, kt's transposed load has none.
  EXPECT_EQ(count(r.cu, "with_whole_tiles("), 1u) << r.cu;
  EXPECT_TRUE(contains(r.cu, "load<Layout_32x32, PaddingMode::Undetermined, Order<1, 0>>(a, {0, 0})")) << r.cu;
}

// A row kernel with big 16-bit tiles (256 threads x 32 elements, three such loads) that asks for
// occupancy=4: every tile whose index the block knows before its first access is tested once,
// and the checked copy runs out of line. An index computed after the first access,
// or one that changes in a loop, keeps its own test. In the fast copy, `arange(TN) < x.shape[1]`
// is all true (x's whole tile spans TN columns); `< x.shape[0]` is not proven (it spans 1 row).
// The same kernel on f32 tiles keeps the plain split of fixed tiles.
TEST(Transpile, BlockKnownTilesTestedOnceInCappedRowKernels) {
  const std::string source =
      "import cuda.tile as ct\n\n"
      "@ct.kernel(occupancy=4)\n"
      "def rows(x, w, b, y, TN: ct.Constant[int]):\n"
      "    row = ct.bid(0) * 2\n"
      "    t = ct.load(x, index=(row, 0), shape=(1, TN)).astype(ct.float32)\n"
      "    j = row + ct.sum(t).astype(ct.int32)\n"
      "    inside = ct.arange(TN, dtype=ct.int32)[None, :] < x.shape[1]\n"
      "    few = x.shape[0] > ct.arange(TN, dtype=ct.int32)[None, :]\n"
      "    u = ct.where(inside & few, t, 0.0) * ct.load(w, index=(0,), shape=(TN,)).astype(ct.float32)[None, :]\n"
      "    u = u + ct.load(b, index=(0,), shape=(TN,)).astype(ct.float32)[None, :]\n"
      "    ct.store(y, index=(row, 0), tile=u.astype(y.dtype))\n"
      "    for i in range(2):\n"
      "        ct.store(y, index=(row + i, 0), tile=t.astype(y.dtype))\n"
      "    ct.store(y, index=(j, 0), tile=u.astype(y.dtype))\n";
  TranspileResult r = transpile("rows.py", source, with_sigs(
      {"rows(x=bfloat16[?, ?], w=bfloat16[?], b=bfloat16[?], y=bfloat16[?, ?], TN=8192)",
       "rows(x=float32[?, ?], w=float32[?], b=float32[?], y=float32[?, ?], TN=8192)"}));
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "__launch_bounds__(kThreads, 4) rows(")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "  const auto row = int32_t(blockIdx.x) * 2;\n"
                             "  // Whether the tiles of x, w, b and y this block touches are whole (in bounds, aligned) is tested\n"
                             "  // once, here; the rest of the kernel is compiled for both answers, the checked copy out of line,\n"
                             "  // so that its registers do not count against the fast copy's (tile2cu/memory.cuh).\n"
                             "  const bool tiles_whole =\n"
                             "      whole_tile<Layout_1x8192>(x, {row, 0}) &&\n"
                             "      whole_tile<Layout_8192>(w, {0}) &&\n"
                             "      whole_tile<Layout_8192>(b, {0}) &&\n"
                             "      whole_tile<Layout_1x8192>(y, {row, 0});\n"
                             "  with_whole_tiles_outlined(tiles_whole, [=](auto whole) mutable {\n")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "    store(y, {row, 0}, astype<__nv_bfloat16>(u_2), whole);\n")) << r.cu;
  // The column index row (one reshape through shared memory, shared by both masks: CSE).
  EXPECT_TRUE(contains(r.cu, "    const auto t_2 = reshape<Layout_1x8192>(arange<Layout_8192, int32_t>(0, 1), smem);\n"
                             "    const auto inside = true_when_whole(whole, t_2 < x.shape[1]);\n")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "    const auto few = x.shape[0] > t_2;\n")) << r.cu;
  EXPECT_EQ(count(r.cu, "true_when_whole("), 1u) << r.cu;
  EXPECT_TRUE(contains(r.cu, "      store(y, {row + i, 0}, astype<__nv_bfloat16>(t));\n")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "    store(y, {j, 0}, astype<__nv_bfloat16>(u_2));\n")) << r.cu;
  // f32: w's and b's loads alone are tested once, inline.
  EXPECT_EQ(count(r.cu, "with_whole_tiles_outlined("), 1u) << r.cu;
  EXPECT_EQ(count(r.cu, "with_whole_tiles(fixed_tiles_whole, [&](auto whole) {"), 1u) << r.cu;
}

TEST(Transpile, SmallKernel) {
  TranspileResult r = transpile("vadd.py", kVectorAdd, with_sigs({"a=float32[?], b=float32[?], c=float32[?], TILE=1024"}));
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(r.diagnostics.empty());
  EXPECT_TRUE(contains(r.cu, "__launch_bounds__(kThreads)")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "constexpr int kThreads = 256;")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "load<Layout_1024>(a, {block}, whole_at_launch)")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "using Layout_1024 = BlockedLayout<Shape<1024>, kThreads, 4>;")) << r.cu;
  // The Python statements appear as comments above their code.
  EXPECT_TRUE(contains(r.cu, "  // a_tile = ct.load(a, index=(block,), shape=(TILE,))\n")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "  // ct.store(c, index=(block,), tile=a_tile + b_tile)\n")) << r.cu;
  // The C entry point, named after the default specialization name.
  EXPECT_TRUE(contains(r.cu, "extern \"C\" int tile2cu_vadd_f32_f32_f32_1024(")) << r.cu;
  EXPECT_TRUE(contains(r.cuh, "extern \"C\" int tile2cu_vadd_f32_f32_f32_1024(")) << r.cuh;
  EXPECT_TRUE(contains(r.cuh, "cudaError_t launch_vadd_f32_f32_f32_1024(")) << r.cuh;
  EXPECT_TRUE(contains(r.cu, "#include \"vadd.cuh\"")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "from vadd.py")) << r.cu;
  // Only c is written: a and b are const in the launcher.
  EXPECT_TRUE(contains(r.cu, "tile2cu::ArrayView<const float, 1> a")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "tile2cu::ArrayView<float, 1> c")) << r.cu;
  EXPECT_TRUE(contains(r.ir, "func @vadd_f32_f32_f32_1024 = vadd(")) << r.ir;
  EXPECT_FALSE(r.ast.empty());
}

TEST(Transpile, NamedSpecializationsAndDispatcher) {
  TranspileResult r = transpile(
      "vadd.py", kVectorAdd,
      with_sigs({"fast = vadd(a=float32[?], b=float32[?], c=float32[?], TILE=1024)",
                 "half = vadd(a=float16[?], b=float16[?], c=float16[?], TILE=2048)"}));
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "extern \"C\" int tile2cu_fast(")) << r.cu;
  // `half` is CUDA's type at global scope: the specialization's C++ name is half_py (docs/naming.md).
  EXPECT_TRUE(contains(r.cu, "extern \"C\" int tile2cu_half_py(")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "namespace half_py {")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "load<Layout_2048>(a, {block}, whole_at_launch)")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "// Specializations: fast, half_py.")) << r.cu;
  EXPECT_TRUE(contains(r.cuh, "cudaError_t launch_vadd(")) << r.cuh;
}

TEST(Transpile, OutputIsByteIdenticalAcrossRuns) {
  auto opts = with_sigs({"a=float32[?], b=float32[?], c=float32[?], TILE=1024",
                         "h = vadd(a=float16[?], b=float16[?], c=float16[?], TILE=256)"});
  TranspileResult first = transpile("vadd.py", kVectorAdd, opts);
  TranspileResult second = transpile("vadd.py", kVectorAdd, opts);
  ASSERT_TRUE(first.ok) << first.diagnostics;
  EXPECT_EQ(first.cu, second.cu);
  EXPECT_EQ(first.cuh, second.cuh);
  EXPECT_EQ(first.ir, second.ir);
  EXPECT_EQ(first.ast, second.ast);
}

TEST(Transpile, LineDirectives) {
  auto opts = with_sigs({"a=float32[?], b=float32[?], c=float32[?], TILE=1024"});
  opts.line_directives = true;
  TranspileResult r = transpile("vadd.py", kVectorAdd, opts);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "#line 7 \"vadd.py\"\n")) << r.cu;
  TranspileResult plain = transpile("vadd.py", kVectorAdd, with_sigs({"a=float32[?], b=float32[?], c=float32[?], TILE=1024"}));
  EXPECT_FALSE(contains(plain.cu, "#line")) << plain.cu;
}

TEST(Transpile, SidecarSignatures) {
  TranspileOptions o;
  o.sidecar_path = "vadd.sigs";
  o.sidecar_text = "# comment\nv1 = vadd(a=int32[?], b=int32[?], c=int32[?], TILE=256)\n";
  TranspileResult r = transpile("vadd.py", kVectorAdd, o);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "tile2cu_v1(")) << r.cu;
}

TEST(Transpile, ErrorInTheKernel) {
  std::string src = kVectorAdd;
  src += "    ct.store(c, index=(block,), tile=a_tile + missing)\n";
  TranspileResult r = transpile("vadd.py", src, with_sigs({"a=float32[?], b=float32[?], c=float32[?], TILE=1024"}));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.cu.empty());
  EXPECT_TRUE(contains(r.diagnostics, "vadd.py:10:47: error[")) << r.diagnostics;
  EXPECT_TRUE(contains(r.diagnostics, "missing")) << r.diagnostics;
  // The source line and a caret under the name.
  EXPECT_TRUE(contains(r.diagnostics, "    ct.store(c, index=(block,), tile=a_tile + missing)\n")) << r.diagnostics;
  EXPECT_TRUE(contains(r.diagnostics, std::string(4 + 46, ' ') + "^^^^^^^")) << r.diagnostics;
}

TEST(Transpile, SyntaxErrorAndSignatureError) {
  TranspileResult bad_py = transpile("vadd.py", "def f(:\n", with_sigs({"a=float32[?]"}));
  EXPECT_FALSE(bad_py.ok);
  EXPECT_EQ(bad_py.exit_code, 1);
  EXPECT_TRUE(contains(bad_py.diagnostics, "vadd.py:1:")) << bad_py.diagnostics;

  TranspileResult bad_sig = transpile("vadd.py", kVectorAdd, with_sigs({"a=floot32[?], b=float32[?], c=float32[?], TILE=1"}));
  EXPECT_FALSE(bad_sig.ok);
  EXPECT_EQ(bad_sig.exit_code, 1);
  EXPECT_TRUE(contains(bad_sig.diagnostics, ":1:3: error[SignatureError]")) << bad_sig.diagnostics;
}

TEST(Transpile, UsageErrors) {
  TranspileResult none = transpile("vadd.py", kVectorAdd, TranspileOptions{});
  EXPECT_FALSE(none.ok);
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_FALSE(none.diagnostics.empty());

  TranspileResult dup = transpile("vadd.py", kVectorAdd,
                                  with_sigs({"s = vadd(a=float32[?], b=float32[?], c=float32[?], TILE=64)",
                                             "s = vadd(a=float16[?], b=float16[?], c=float16[?], TILE=64)"}));
  EXPECT_FALSE(dup.ok);
  EXPECT_EQ(dup.exit_code, 2);
  EXPECT_TRUE(contains(dup.diagnostics, "'s'")) << dup.diagnostics;

  TranspileResult unknown = transpile("vadd.py", kVectorAdd, with_sigs({"nope(a=float32[?])"}));
  EXPECT_FALSE(unknown.ok);
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_TRUE(contains(unknown.diagnostics, "nope")) << unknown.diagnostics;
}

TEST(Transpile, HugeLiteralTimesF32TileIsValidCuda) {
  const char* src =
      "import cuda.tile as ct\n"
      "\n"
      "@ct.kernel\n"
      "def big(x, y, TILE: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    ct.store(y, index=(ct.bid(0),), tile=t * 1e300)\n";
  TranspileResult r = transpile("big.py", src, with_sigs({"x=float32[?], y=float32[?], TILE=64"}));
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_FALSE(contains(r.cu, "inff")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "INFINITY")) << r.cu;
}

TEST(Transpile, IntAndFloatConstantsAreDifferentSpecializations) {
  const char* src =
      "import cuda.tile as ct\n"
      "\n"
      "@ct.kernel\n"
      "def scale(x, y, S: ct.Constant[float], TILE: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    ct.store(y, index=(ct.bid(0),), tile=t * S)\n";
  // S=2 keeps t * S int32, S=2.0 makes it float32: two different kernels, which need two
  // names and must say which constant they were built for.
  TranspileResult r = transpile("scale.py", src,
                                with_sigs({"x=int32[?], y=float32[?], S=2, TILE=64",
                                           "x=int32[?], y=float32[?], S=2.0, TILE=64"}));
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, ", S=2.0, TILE=64)")) << r.cu;
  EXPECT_TRUE(contains(r.cu, ", S=2, TILE=64)")) << r.cu;
}

// A Python line quoted above its code may end in a backslash (`# C:\temp\`); in a `//`
// comment that would splice the next C++ line into the comment.
TEST(Transpile, QuotedPythonLinesNeverSpliceTheNextLine) {
  const std::string source =
      "import cuda.tile as ct\n\n"
      "@ct.kernel\n"
      "def k(a, b):\n"
      "    # C:\\temp\\\n"
      "    t = ct.load(a, index=(ct.bid(0),), shape=(16,))  # C:\\temp\\\n"
      "    ct.store(b, index=(ct.bid(0),), tile=t)  # trailing blanks after it \\  \n";
  TranspileResult r = transpile("k.py", source, with_sigs({"a=float32[?], b=float32[?]"}));
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "// t = ct.load(a, index=(ct.bid(0),), shape=(16,))  # C:\\temp\\ //\n")) << r.cu;
  size_t start = 0;
  while (start < r.cu.size()) {
    size_t end = r.cu.find('\n', start);
    if (end == std::string::npos) end = r.cu.size();
    std::string_view line(r.cu.data() + start, end - start);
    size_t last = line.find_last_not_of(" \t");
    if (line.find("//") != std::string_view::npos && last != std::string_view::npos)
      EXPECT_NE(line[last], '\\') << line;
    start = end + 1;
  }
}

}  // namespace
}  // namespace tile2cu
