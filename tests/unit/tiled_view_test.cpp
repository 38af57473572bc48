// Array.tiled_view (spec b.8, c.2.5): a compile-time view whose load / store / atomic_store_*
// become the array's own Load / Store / Atomic ops, and cuTile's errors for it. The kernels are
// those of cuTile's test_tiled_view.py (named at each test); the generated code of the default
// view, the sliced one and the atomics is built with nvcc for sm_80 and sm_90a where nvcc is.
#include <gtest/gtest.h>

#include "nvcc_compile.hpp"
#include "sema_test_util.hpp"
#include "tile2cu/tile2cu.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::ops_of_kind;

std::string kernel(const std::string& params, const std::string& body) {
  return "ConstInt = ct.Constant[int]\n\n@ct.kernel\ndef k(" + params + "):\n" + body;
}

// The .cu of `source` (a whole file) for `sig`; with `build`, checked to build with nvcc for
// sm_80 and sm_90a (where nvcc is installed).
std::string transpile_and_build(const std::string& source, const std::string& sig, bool build = false) {
  TranspileOptions options;
  options.signatures = {sig};
  options.header_name = "k.cuh";
  TranspileResult r = transpile("k.py", "import cuda.tile as ct\n" + source, options);
  EXPECT_TRUE(r.ok) << r.diagnostics;
  if (build && r.ok && testing::have_nvcc())
    for (const char* arch : {"sm_80", "sm_90a"}) EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", arch), 0) << r.cu;
  return r.cu;
}

// test_tiled_view_copy_1d / _2d: the default view is ct.load's grid; properties are constants.
TEST(TiledView, DefaultViewIsTheLoadGrid) {
  const std::string src = kernel(
      "x, y, n, TILE_M: ConstInt, TILE_N: ConstInt",
      "    tv_x = x.tiled_view((TILE_M, TILE_N))\n"
      "    ct.static_assert(tv_x.dtype == x.dtype)\n"
      "    ct.static_assert(tv_x.tile_shape == (TILE_M, TILE_N))\n"
      "    ct.static_assert(tv_x.traversal_steps == (TILE_M, TILE_N))\n"
      "    tv_y = y.tiled_view((TILE_M, TILE_N))\n"
      "    tv_y.store((ct.bid(0), ct.bid(1)), tv_x.load((ct.bid(0), ct.bid(1)), allow_tma=False), allow_tma=True)\n"
      "    tv_n = n.tiled_view(())\n"
      "    ct.static_assert(tv_n.tile_shape == ())\n"
      "    tv_n.store(0, tv_x.num_tiles(0))\n"
      "    tv_n.store(1, tv_x.num_tiles(-1))\n");
  const std::string sig = "x=int32[?, ?], y=int32[?, ?], n=int32[?], TILE_M=64, TILE_N=32";
  ir::Function fn = compile_kernel(src, sig);
  auto loads = ops_of_kind(fn, ir::OpKind::Load);
  auto stores = ops_of_kind(fn, ir::OpKind::Store);
  ASSERT_EQ(loads.size(), 1u);
  ASSERT_EQ(stores.size(), 3u);
  EXPECT_EQ(loads[0]->tile_shape, (ir::Shape{64, 32}));
  EXPECT_EQ(stores[0]->tile_shape, (ir::Shape{64, 32}));
  EXPECT_TRUE(stores[1]->tile_shape.empty());  // a view of single elements stores one
  EXPECT_TRUE(ops_of_kind(fn, ir::OpKind::ArraySlice).empty());
  const std::string cu = transpile_and_build(src, sig, /*build=*/true);
  EXPECT_NE(cu.find("store(y, {int32_t(blockIdx.x), int32_t(blockIdx.y)}, load<Layout_64x32>(x, {int32_t(blockIdx.x), "
                    "int32_t(blockIdx.y)}"),
            std::string::npos)
      << cu;
  EXPECT_NE(cu.find("cdiv(x.shape[0], 64)"), std::string::npos) << cu;
  EXPECT_NE(cu.find("cdiv(x.shape[1], 32)"), std::string::npos) << cu;
}

// test_tiled_view_padding_mode: the view's padding is the load's.
TEST(TiledView, PaddingModeGoesToTheLoad) {
  ir::Function fn = compile_kernel(kernel("x, z, TILE: ConstInt",
                                          "    tv = x.tiled_view(TILE, padding_mode=ct.PaddingMode.NEG_INF)\n"
                                          "    ct.store(z, 0, tile=tv.load(1))\n"),
                                   "x=float32[?], z=float32[?], TILE=128");
  auto loads = ops_of_kind(fn, ir::OpKind::Load);
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_EQ(loads[0]->padding, ir::PaddingMode::NegInf);
  EXPECT_KERNEL_ERROR(kernel("x", "    tv = x.tiled_view(4, padding_mode=ct.PaddingMode.NAN)\n"), "x=int32[?]",
                      ErrorKind::Type, "padding mode NAN needs a float array, got int32");
}

// test_tiled_view_traversal_steps_sliding_window, _num_tiles: a step that is a multiple of the
// tile's extent scales the tile index; another one slices the array where the tile starts.
TEST(TiledView, TraversalStepsScaleTheIndexOrSliceTheArray) {
  const std::string src = kernel("x, out, TILE: ConstInt, STEP: ConstInt",
                                 "    tv = x.tiled_view(TILE, traversal_steps=STEP)\n"
                                 "    tv_out = out.tiled_view(TILE, traversal_steps=STEP)\n"
                                 "    for i in range(tv.num_tiles(0)):\n"
                                 "        tv_out.store(i, tv.load(i))\n");
  ir::Function gaps = compile_kernel(src, "x=int8[?], out=int8[?], TILE=4, STEP=8");
  EXPECT_TRUE(ops_of_kind(gaps, ir::OpKind::ArraySlice).empty());
  const std::string gaps_cu = transpile_and_build(src, "x=int8[?], out=int8[?], TILE=4, STEP=8");
  EXPECT_NE(gaps_cu.find("cdiv(x.shape[0], 8)"), std::string::npos) << gaps_cu;
  EXPECT_NE(gaps_cu.find("load<Layout_4>(x, {i * 2})"), std::string::npos) << gaps_cu;

  ir::Function overlap = compile_kernel(src, "x=float32[?], out=float32[?], TILE=4, STEP=3");
  auto slices = ops_of_kind(overlap, ir::OpKind::ArraySlice);
  ASSERT_EQ(slices.size(), 2u);
  EXPECT_TRUE(overlap.arrays[overlap.arrays[slices[1]->param].slice_of].written);  // the store writes out
  const std::string cu = transpile_and_build(src, "x=float32[?], out=float32[?], TILE=4, STEP=3", /*build=*/true);
  EXPECT_NE(cu.find("slice<0>(x, i * 3, x.shape[0])"), std::string::npos) << cu;
  EXPECT_NE(cu.find("slice<0>(out, i * 3, out.shape[0])"), std::string::npos) << cu;
}

// test_tiled_view_2d_conv_no_padding, test_tiled_view_0d_tile_with_traversal_steps.
TEST(TiledView, WindowsAndSingleElements) {
  const std::string conv = transpile_and_build(
      kernel("x, out, OUT_H: ConstInt, OUT_W: ConstInt",
             "    tv = x.tiled_view((2, 2), traversal_steps=(1, 1))\n"
             "    out_tv = out.tiled_view(())\n"
             "    for i in range(OUT_H):\n"
             "        for j in range(OUT_W):\n"
             "            out_tv.store(i * OUT_W + j, ct.sum(tv.load((i, j))))\n"),
      "x=int32[?, ?], out=int32[?], OUT_H=5, OUT_W=5");
  EXPECT_NE(conv.find("slice<1>(x_slice2, j, x_slice2.shape[1])"), std::string::npos) << conv;
  const std::string src = kernel("x, out, STEP_H: ConstInt, STEP_W: ConstInt",
                                 "    tv = x.tiled_view((), traversal_steps=(STEP_H, STEP_W))\n"
                                 "    ct.static_assert(tv.traversal_steps == (STEP_H, STEP_W))\n"
                                 "    out.tiled_view(()).store(3, tv.load((ct.bid(0), 1)))\n");
  const std::string cu = transpile_and_build(src, "x=float32[?, ?], out=float32[?], STEP_H=2, STEP_W=3");
  EXPECT_NE(cu.find("load_scalar(x, {int32_t(blockIdx.x) * 2, 3})"), std::string::npos) << cu;
  ir::Function fn = compile_kernel(kernel("x", "    tv = x.tiled_view(())\n    ct.static_assert(tv.traversal_steps == (1, 1))\n"),
                                   "x=float32[4, 6]");
  EXPECT_TRUE(ops_of_kind(fn, ir::OpKind::Load).empty());
}

// test_tiled_view_store_broadcast, test_store_tile_shape_mismatch: the stored tile broadcasts to
// the view's tile shape, with the implicit (lossless) cast of a store.
TEST(TiledView, StoreBroadcastsAndCasts) {
  const std::string cu = transpile_and_build(kernel("x, y",
                                                    "    t = x.tiled_view((1, 16)).load((0, 0))\n"
                                                    "    y.tiled_view((128, 16)).store((0, 0), t)\n"
                                                    "    y.tiled_view((16, 16)).store((0, 1), x.tiled_view(()).load((0, 0)))\n"),
                                             "x=float16[?, ?], y=float32[?, ?]");
  EXPECT_NE(cu.find("broadcast_to<Layout_128x16>"), std::string::npos) << cu;
  EXPECT_KERNEL_ERROR(kernel("x, y, TILE: ConstInt",
                             "    wrong_tile = ct.load(x, 0, (TILE * 2,))\n"
                             "    y.tiled_view(TILE).store(0, wrong_tile)\n"),
                      "x=float32[?], y=float32[?], TILE=4", ErrorKind::Type,
                      "Tile shape (8,) is not broadcastable to the tiled view's tile shape (4,)");
  EXPECT_KERNEL_ERROR(kernel("x, y", "    y.tiled_view(()).store(0, ct.load(x, 0, (1,)))\n"), "x=float32[?], y=float32[?]",
                      ErrorKind::Type, "Tile shape (1,) is not broadcastable to the tiled view's tile shape ()");
  EXPECT_KERNEL_ERROR(kernel("x, y", "    y.tiled_view(4).store(0, ct.load(x, 0, (4,)))\n"), "x=float32[?], y=float16[?]",
                      ErrorKind::Type, "cannot implicitly cast float32 to float16");
}

// test_tiled_view_atomic, _atomic_broadcast, _atomic_traversal_steps: element-wise relaxed
// atomics at the tile's element indices, made without moving data between threads.
TEST(TiledView, AtomicStoresAreElementAtomics) {
  const std::string src = kernel("x, y, TILE_M: ConstInt, TILE_N: ConstInt",
                                 "    tv_x = x.tiled_view((TILE_M, TILE_N), traversal_steps=(110, 110))\n"
                                 "    update = y.tiled_view((TILE_M, TILE_N), traversal_steps=(110, 110)).load((ct.bid(0), ct.bid(1)))\n"
                                 "    tv_x.atomic_store_xor((ct.bid(0), ct.bid(1)), update)\n"
                                 "    tv_x.atomic_store_add((ct.bid(0), 0), 3)\n");
  const std::string sig = "x=int32[?, ?], y=int32[?, ?], TILE_M=128, TILE_N=128";
  ir::Function fn = compile_kernel(src, sig);
  auto atomics = ops_of_kind(fn, ir::OpKind::Atomic);
  ASSERT_EQ(atomics.size(), 2u);
  EXPECT_EQ(atomics[0]->atomic, ir::AtomicKind::Xor);
  EXPECT_EQ(atomics[0]->memory_order, ir::MemoryOrder::Relaxed);
  EXPECT_EQ(atomics[0]->memory_scope, ir::MemoryScope::Device);
  EXPECT_EQ(fn.type(atomics[0]->results[0]).shape, (ir::Shape{128, 128}));
  const std::string cu = transpile_and_build(src, sig, /*build=*/true);
  EXPECT_NE(cu.find("reshape<Layout_128x128>(arange<Layout_16384, int32_t>(0, 1), nullptr)"), std::string::npos) << cu;
  EXPECT_NE(cu.find("indices((t >> 7) + int32_t(blockIdx.x) * 110, (t & 127) + int32_t(blockIdx.y) * 110)"), std::string::npos)
      << cu;
  EXPECT_EQ(cu.find("broadcast_to"), std::string::npos) << cu;

  const std::string bcast = transpile_and_build(kernel("x, y",
                                                       "    update = y.tiled_view(()).load((0, 0))\n"
                                                       "    x.tiled_view((16, 16)).atomic_store_add((0, 0), update)\n"
                                                       "    x.tiled_view(()).atomic_store_add((1, 2), update)\n"),
                                                "x=float32[?, ?], y=float16[?, ?]");
  EXPECT_NE(bcast.find("atomic_add<Layout_16x16, MemoryOrder::Relaxed>(x, indices(t >> 4, t & 15)"), std::string::npos)
      << bcast;
}

// test_tiled_view_atomic's three errors and test_tiled_view_atomic_shape_mismatch.
TEST(TiledView, AtomicStoreErrors) {
  auto atomic = [](const std::string& method) {
    return kernel("x, y", "    x.tiled_view(16)." + method + "(0, y.tiled_view(16).load(0))\n");
  };
  EXPECT_KERNEL_ERROR(atomic("atomic_store_add"), "x=int8[?], y=int8[?]", ErrorKind::Type,
                      "Unsupported tiled view dtype int8 for atomic_store_add()");
  EXPECT_KERNEL_ERROR(atomic("atomic_store_max"), "x=float32[?], y=float32[?]", ErrorKind::Type,
                      "Unsupported tiled view dtype float32 for atomic_store_max()");
  EXPECT_KERNEL_ERROR(atomic("atomic_store_or"), "x=int32[?], y=uint32[?]", ErrorKind::Type,
                      "to exactly match the target dtype int32");
  EXPECT_KERNEL_ERROR(atomic("atomic_store_min"), "x=int32[?], y=int64[?]", ErrorKind::Type,
                      "cannot implicitly cast int64 to int32");
  compile_kernel(atomic("atomic_store_min"), "x=int64[?], y=int16[?]");  // lossless: accepted
  EXPECT_KERNEL_ERROR(kernel("x, y",
                             "    update = y.tiled_view(8).load(0)\n"
                             "    x.tiled_view(16).atomic_store_add(0, update)\n"),
                      "x=float32[?], y=float32[?]", ErrorKind::Type,
                      "Update shape (8,) is not broadcastable to the tiled view's tile shape (16,)");
}

// test_tiled_view_rank_mismatch, _traversal_steps_rank_mismatch, _non_positive_traversal_steps.
TEST(TiledView, ViewArgumentErrors) {
  EXPECT_KERNEL_ERROR(kernel("x", "    x.tiled_view((1, 2, 3))\n"), "x=float32[?]", ErrorKind::Type,
                      "Expected shape length to be 1, got 3");
  EXPECT_KERNEL_ERROR(kernel("x", "    x.tiled_view((), traversal_steps=())\n"), "x=float32[?, ?]", ErrorKind::Type,
                      "Expected traversal_steps length to be 2, got 0");
  EXPECT_KERNEL_ERROR(kernel("x", "    x.tiled_view(4, traversal_steps=(2, 2))\n"), "x=float32[?]", ErrorKind::Type,
                      "Expected traversal_steps length to be 1, got 2");
  EXPECT_KERNEL_ERROR(kernel("x", "    x.tiled_view(4, traversal_steps=0)\n"), "x=float32[?]", ErrorKind::Type,
                      "Dimension #0 of traversal_steps (0,) is not positive");
  EXPECT_KERNEL_ERROR(kernel("x", "    x.tiled_view((4, 4), traversal_steps=(4, -1))\n"), "x=float32[?, ?]",
                      ErrorKind::Type, "Dimension #1 of traversal_steps (4, -1) is not positive");
  EXPECT_KERNEL_ERROR(kernel("x", "    x.tiled_view(3)\n"), "x=float32[?]", ErrorKind::Type, "is not a power of two");
  EXPECT_KERNEL_ERROR(kernel("x", "    x.tiled_view(4).load((0, 0))\n"), "x=float32[?]", ErrorKind::Type,
                      "Index size 2 does not match the tiled view rank 1");
  EXPECT_KERNEL_ERROR(kernel("x", "    x.tiled_view(4).num_tiles(1)\n"), "x=float32[?]", ErrorKind::Type,
                      "Axis 1 is out of range for rank 1'");
  EXPECT_KERNEL_ERROR(kernel("x", "    n = ct.static_eval(x.tiled_view(4))\n"), "x=float32[?]", ErrorKind::StaticEval,
                      "tiled_view() cannot be called inside");
}

// test_tiled_view_ifelse_result, _helper_func, _closure: views pass through constant ifs, helpers
// and closures as values; test_tiled_view_ifelse_type_mismatch: a run-time if may not choose
// between views of different tile shapes.
TEST(TiledView, ViewsAreValues) {
  transpile_and_build(kernel("x, y, z, TILE: ConstInt, USE_X: ct.Constant[bool]",
                             "    def get_view(arr, tile_size):\n"
                             "        return arr.tiled_view(tile_size)\n"
                             "    tv = get_view(x, TILE) if USE_X else y.tiled_view(TILE)\n"
                             "    tv_z = z.tiled_view(TILE)\n"
                             "    def copy(i):\n"
                             "        tv_z.store(i, tv.load(i))\n"
                             "    for i in range(tv.num_tiles(0)):\n"
                             "        copy(i)\n"),
                      "x=float32[?], y=float32[?], z=float32[?], TILE=64, USE_X=False");
  EXPECT_KERNEL_ERROR(kernel("x, cond: bool, TILE_A: ConstInt, TILE_B: ConstInt",
                             "    if cond:\n"
                             "        tv = x.tiled_view(TILE_A)\n"
                             "    else:\n"
                             "        tv = x.tiled_view(TILE_B)\n"
                             "    tv.store(0, ct.full(TILE_A, 1.0, ct.float32))\n"),
                      "x=float32[?], cond=bool, TILE_A=64, TILE_B=32", ErrorKind::Type, "depends on path taken");
}

// test_tiled_view_loop_carried: a view that names another array after an iteration would need
// the array chosen at run time; the body, lowered once, would read the first one in every
// iteration, so it is refused instead. The same view again is fine.
TEST(TiledView, LoopRebindingToAnotherArrayIsRefused) {
  const char* sig = "x=float32[?], y=float32[?], z=float32[?], TILE=128";
  EXPECT_KERNEL_ERROR(kernel("x, y, z, TILE: ConstInt",
                             "    tv = x.tiled_view(TILE)\n"
                             "    tv_z = z.tiled_view(TILE)\n"
                             "    for i in range(tv_z.num_tiles(0)):\n"
                             "        tv_z.store(i, tv.load(0))\n"
                             "        tv = y.tiled_view(TILE)\n"),
                      sig, ErrorKind::UnsupportedFeature, "tile2cu cannot choose an array at run time yet");
  EXPECT_KERNEL_ERROR(kernel("x, y, z, TILE: ConstInt",
                             "    tv = x.tiled_view(TILE)\n"
                             "    for i in range(2):\n"
                             "        z.tiled_view(TILE).store(i, tv.load(0))\n"
                             "        tv = x.tiled_view(TILE // 2)\n"),
                      sig, ErrorKind::Type, "Variable tv has changed its type inside a loop");
  compile_kernel(kernel("x, y, z, TILE: ConstInt",
                        "    tv = x.tiled_view(TILE)\n"
                        "    for i in range(2):\n"
                        "        z.tiled_view(TILE).store(i, tv.load(0))\n"
                        "        tv = x.tiled_view(TILE)\n"),
                 sig);
}

}  // namespace
}  // namespace tile2cu
