// Array.slice(axis, start, stop) (spec b.1, b.9): a view narrowed along one axis, no copy. Sema
// adds an array entry defined by an ArraySlice op; the emitter names it with slice<axis>().
#include "emit/cuda_emitter.hpp"
#include "ir/passes/dce.hpp"
#include "sema_test_util.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::ops_of_kind;

// The ragged-segment pattern: block b works on rows offsets[b] .. offsets[b+1] of X.
const char* kRagged =
    "@ct.kernel\n"
    "def k(X, offsets, Y, TILE: ct.Constant[int]):\n"
    "    b = ct.bid(0)\n"
    "    start = ct.load(offsets, index=(b,), shape=())\n"
    "    stop = ct.load(offsets, index=(b + 1,), shape=())\n"
    "    seg = X.slice(0, start, stop)\n"
    "    t = ct.load(seg, index=(0, 0), shape=(TILE, 64))\n"
    "    ct.store(Y.slice(axis=-2, start=start, stop=stop), index=(0, 0), tile=t)\n";
const char* kRaggedSig = "X=float32[?, 64], offsets=int32[?], Y=float32[?, 64], TILE=16";

TEST(ArraySlice, ViewIsAnArrayOfTheSource) {
  ir::Function fn = compile_kernel(kRagged, kRaggedSig);
  auto slices = ops_of_kind(fn, ir::OpKind::ArraySlice);
  ASSERT_EQ(slices.size(), 2u);
  const ir::ArrayParam& seg = fn.arrays[slices[0]->param];
  EXPECT_EQ(seg.name, "seg");  // named after the Python variable it is bound to
  EXPECT_EQ(fn.arrays[seg.slice_of].name, "X");
  EXPECT_EQ(seg.dtype, DType::Float32);
  EXPECT_EQ(seg.rank, 2);
  EXPECT_FALSE(seg.static_dims[0].has_value());  // runtime bounds: a runtime extent
  EXPECT_EQ(seg.static_dims[1], 64);              // the other dims stay what the signature says
  EXPECT_EQ(slices[0]->axis, 0);
  EXPECT_EQ(slices[1]->axis, 0);  // axis -2 of a rank-2 array
  const ir::ArrayParam& y_view = fn.arrays[slices[1]->param];
  EXPECT_EQ(y_view.name, "Y_slice4");  // never bound to a name
  EXPECT_TRUE(y_view.written);
  EXPECT_TRUE(fn.arrays[y_view.slice_of].written);  // a store through a view writes Y
  EXPECT_FALSE(fn.arrays[seg.slice_of].written);     // X stays const in the launcher
}

TEST(ArraySlice, ConstantBoundsGiveAConstantExtent) {
  ir::Function fn = compile_kernel(
      "@ct.kernel\n"
      "def k(x, y, TILE: ct.Constant[int]):\n"
      "    sub = x.slice(0, 4, 16).slice(0, 2, 8)\n"
      "    t = ct.load(sub, index=(0,), shape=(TILE,))\n"
      "    ct.store(y, index=(0,), tile=t + sub.shape[0])\n",
      "x=float32[?], y=float32[?], TILE=8");
  auto slices = ops_of_kind(fn, ir::OpKind::ArraySlice);
  ASSERT_EQ(slices.size(), 2u);
  EXPECT_EQ(fn.arrays[slices[0]->param].static_dims[0], 12);
  EXPECT_EQ(fn.arrays[slices[1]->param].static_dims[0], 6);
  EXPECT_EQ(fn.arrays[slices[1]->param].slice_of, slices[0]->param);  // a chain of views
  EXPECT_TRUE(ops_of_kind(fn, ir::OpKind::ArrayDim).empty());        // sub.shape[0] folded to 6
}

TEST(ArraySlice, SlicesAListItem) {
  ir::Function fn = compile_kernel(
      "@ct.kernel\n"
      "def k(xs, n: int, TILE: ct.Constant[int]):\n"
      "    head = xs[ct.bid(0)].slice(0, 0, n)\n"
      "    ct.store(head, index=(0,), tile=ct.zeros((TILE,), dtype=ct.float32))\n",
      "xs=list[float32[?]], n=int32, TILE=16");
  auto slices = ops_of_kind(fn, ir::OpKind::ArraySlice);
  ASSERT_EQ(slices.size(), 1u);
  const ir::ArrayParam& item = fn.arrays[fn.arrays[slices[0]->param].slice_of];
  ASSERT_GE(item.list_of, 0);
  EXPECT_TRUE(fn.arrays[item.list_of].written);  // view -> item -> list
}

TEST(ArraySlice, EmittedAsAView) {
  std::vector<ir::Function> specs;
  specs.push_back(compile_kernel(kRagged, kRaggedSig));
  EmittedFiles out = emit_cuda(specs, EmitOptions{});
  EXPECT_NE(out.cu.find("const auto seg = slice<0>(X, start, stop);"), std::string::npos) << out.cu;
  EXPECT_NE(out.cu.find("const auto Y_slice4 = slice<0>(Y, start, stop);"), std::string::npos) << out.cu;
  EXPECT_NE(out.cu.find("load<Layout_16x64>(seg, {0, 0})"), std::string::npos) << out.cu;
}

TEST(ArraySlice, UnusedViewIsDeadCode) {
  ir::Function fn = compile_kernel(
      "@ct.kernel\n"
      "def k(xs, y, n: int, TILE: ct.Constant[int]):\n"
      "    unused = xs[0].slice(0, 1, n)\n"
      "    ct.store(y, index=(0,), tile=ct.zeros((TILE,), dtype=ct.float32))\n",
      "xs=list[float32[?]], y=float32[?], n=int32, TILE=16");
  ASSERT_EQ(ops_of_kind(fn, ir::OpKind::ArraySlice).size(), 1u);
  ir::eliminate_dead_code(fn);
  ir::verify(fn);
  EXPECT_TRUE(ops_of_kind(fn, ir::OpKind::ArraySlice).empty());
  EXPECT_TRUE(ops_of_kind(fn, ir::OpKind::ListItem).empty());  // the item only fed the slice
}

TEST(ArraySlice, ConstantViolationsAreCompileErrors) {
  const char* sig = "x=float32[?, 32], s=int32, u=uint32";
  auto body = [](const std::string& call) {
    return "@ct.kernel\ndef k(x, s: int, u: ct.uint32):\n    v = " + call + "\n";
  };
  EXPECT_KERNEL_ERROR(body("x.slice(2, 0, 4)"), sig, ErrorKind::Type, "Axis 2 is out of range for rank 2");
  EXPECT_KERNEL_ERROR(body("x.slice(-3, 0, 4)"), sig, ErrorKind::Type, "Axis -3 is out of range for rank 2");
  EXPECT_KERNEL_ERROR(body("x.slice(s, 0, 4)"), sig, ErrorKind::Type, "Expected an integer constant");
  EXPECT_KERNEL_ERROR(body("x.slice(0, -1, 4)"), sig, ErrorKind::Type, "Slice start must be non-negative");
  EXPECT_KERNEL_ERROR(body("x.slice(0, s, -1)"), sig, ErrorKind::Type, "Slice stop must be non-negative");
  EXPECT_KERNEL_ERROR(body("x.slice(0, 5, 3)"), sig, ErrorKind::Type,
                      "Slice stop must be greater than or equal to start, got start=5 and stop=3");
  EXPECT_KERNEL_ERROR(body("x.slice(1, 32, 32)"), sig, ErrorKind::Type,
                      "Slice start 32 is out of range for axis 1 of size 32");
  EXPECT_KERNEL_ERROR(body("x.slice(1, s, 33)"), sig, ErrorKind::Type,
                      "Slice stop 33 is out of range for axis 1 of size 32");
  EXPECT_KERNEL_ERROR(body("x.slice(0, 1.0, 4)"), sig, ErrorKind::Type,
                      "Expected a signed integer scalar or a 0D signed integer tile, got float constant");
  EXPECT_KERNEL_ERROR(body("x.slice(0, u, 4)"), sig, ErrorKind::Type, "got uint32 scalar");
  EXPECT_KERNEL_ERROR(body("x.slice(0, 0, ct.arange(4, dtype=ct.int32))"), sig, ErrorKind::Type,
                      "got Tile[int32,(4,)]");
  EXPECT_KERNEL_ERROR(body("x.slice(0, 0)"), sig, ErrorKind::Type, "slice() missing required argument 'stop'");
  EXPECT_KERNEL_ERROR(body("ct.zeros((4,), dtype=ct.float32).slice(0, 0, 2)"), sig, ErrorKind::Type,
                      "has no attribute 'slice'");
}

// A view (or a list item) rebound inside a loop cannot be read after it: the loop carries tiles
// and scalars only. (It used to read as the view from before the loop.)
TEST(ArraySlice, ViewReboundInALoopIsNotReadAfterIt) {
  EXPECT_KERNEL_ERROR("@ct.kernel\ndef k(x, y, n: int):\n"
                      "    seg = x.slice(0, 0, 1)\n"
                      "    for g in range(n):\n"
                      "        seg = x.slice(0, g, g + 1)\n"
                      "    ct.store(y, index=(0,), tile=ct.load(seg, index=(0,), shape=(16,)))\n",
                      "x=float32[?], y=float32[?], n=int32", ErrorKind::Type,
                      "Variable seg is not a tile or scalar and cannot change inside a loop");
  // Inside the loop, and bound once before it, views are fine.
  ir::Function fn = compile_kernel(
      "@ct.kernel\ndef k(x, y, n: int):\n"
      "    for g in range(n):\n"
      "        seg = x.slice(0, g, g + 1)\n"
      "        ct.store(y, index=(g,), tile=ct.load(seg, index=(0,), shape=(16,)))\n",
      "x=float32[?], y=float32[?], n=int32");
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::ArraySlice).size(), 1u);
}

}  // namespace
}  // namespace tile2cu
