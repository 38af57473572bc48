// API surface rows of the coverage table (docs/coverage.md) that no other test names directly:
// Tile.item(), array .strides/.ndim, ct.ByTarget in kernel options, dtype constructors.
#include "sema_test_util.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::ops_of_kind;

TEST(ApiSurface, ItemStridesNdimAndByTarget) {
  ir::Function fn = compile_kernel(
      "@ct.kernel(occupancy=ct.ByTarget(sm_90=2, default=1), num_ctas=ct.ByTarget(sm_100=2))\n"
      "def k(x, y, TILE: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(0, 0), shape=(1, TILE))\n"
      "    first = ct.reshape(ct.sum(t, axis=1), (1,)).item()\n"
      "    s = x.strides[0] + x.ndim\n"
      "    v = ct.int16(70000)\n"
      "    ct.store(y, index=(0, 0), tile=t * first + s + v)\n",
      "x=float32[?, ?], y=float32[?, ?], TILE=64");
  EXPECT_EQ(fn.occupancy, 2);  // ByTarget picks sm_90, the target tile2cu's code is tuned for
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::ArrayStride).size(), 2u);  // x.strides: one per axis
  bool scalar_item = false;  // item(): a (1,) tile to a scalar (here the reduction folds to one)
  for (size_t v = 0; v < fn.values.size(); ++v)
    scalar_item |= fn.values[v].name == "first" && fn.type(static_cast<ir::ValueId>(v)).is_scalar();
  EXPECT_TRUE(scalar_item);
}

TEST(ApiSurface, KernelOptionsAreCheckedHints) {
  const char* body_tail =
      "def k(x, TILE: ct.Constant[int]):\n"
      "    ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(TILE,)))\n";
  const char* sig = "x=float32[?], TILE=16";
  compile_kernel(std::string("@ct.kernel(opt_level=2, num_worker_warps=4, num_ctas=2)\n") + body_tail, sig);
  EXPECT_KERNEL_ERROR(std::string("@ct.kernel(opt_level=4)\n") + body_tail, sig, ErrorKind::Value, "opt_level should be in [0, 3]");
  EXPECT_KERNEL_ERROR(std::string("@ct.kernel(num_worker_warps=6)\n") + body_tail, sig, ErrorKind::Value, "either 4 or 8");
  EXPECT_KERNEL_ERROR(std::string("@ct.kernel(num_ctas=3)\n") + body_tail, sig, ErrorKind::Value, "a power of 2 in [1, 16]");
}

TEST(ApiSurface, IsNoneInTupleAndContinue) {
  ir::Function fn = compile_kernel(
      "@ct.kernel\n"
      "def k(a, TILE: ct.Constant[int]):\n"
      "    t = ct.load(a, index=(0,), shape=(TILE,))\n"
      "    b = None\n"
      "    if b is None and TILE in (8, 16) and TILE not in (1, 2) and t is not None:\n"
      "        t = t * 2\n"
      "    for i in range(3):\n"
      "        if i == 1:\n"
      "            continue\n"
      "        t = t + 1\n"
      "    ct.store(a, index=(0,), tile=t)\n",
      "a=float32[?], TILE=16");
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Continue).size(), 1u);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::If).size(), 1u);  // the constant condition folded away
}

TEST(ApiSurface, StarArgsInHelpersAndCalls) {
  ir::Function fn = compile_kernel(
      "def total(*xs):\n"
      "    return xs[0] + xs[1] + xs[2]\n"
      "\n"
      "@ct.kernel\n"
      "def k(a, TILE: ct.Constant[int]):\n"
      "    t = ct.load(a, index=(0,), shape=(TILE,))\n"
      "    pair = (t, t * 2)\n"
      "    ct.store(a, index=(0,), tile=total(*pair, 1.0))\n",
      "a=float32[?], TILE=16");
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Binary).size(), 3u);  // t * 2, then two additions
}

}  // namespace
}  // namespace tile2cu
