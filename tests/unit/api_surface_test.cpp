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
  bool scalar_item = false;
  for (const ir::Op* op : ops_of_kind(fn, ir::OpKind::Reshape))
    scalar_item |= fn.type(op->results[0]).is_scalar();
  EXPECT_TRUE(scalar_item);  // item(): a (1,) tile to a scalar
}

}  // namespace
}  // namespace tile2cu
