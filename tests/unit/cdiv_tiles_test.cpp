// ct.cdiv on tiles (cuTile's test_binary_elementwise.py::test_array_div and
// test_array_scalar_div with ct.cdiv): integer operands promoted and broadcast as for `//`.
#include "sema_test_util.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::ops_of_kind;

// One CeilDiv of the promoted dtype and broadcast shape per call.
TEST(CdivTiles, PromotedAndBroadcast) {
  const char* sig = "x=int16[?], y=int32[?], z=uint32[?]";
  const std::string pre =
      "@ct.kernel\n"
      "def k(x, y, z):\n"
      "    a = ct.load(x, index=(0,), shape=(16,))\n"
      "    b = ct.load(y, index=(0,), shape=(16,))\n"
      "    c = ct.load(z, index=(0,), shape=(16,))\n";
  ir::Function fn = compile_kernel(
      pre + "    ct.store(y, index=(0,), tile=ct.cdiv(a, b) + ct.cdiv(a, 23))\n"
            "    ct.store(z, index=(0,), tile=ct.extract(ct.reshape(ct.cdiv(c, ct.reshape(c, (16, 1))), (256,)), (0,), shape=(16,)))\n",
      sig);
  std::vector<ir::TileType> types;
  for (const ir::Op* op : ops_of_kind(fn, ir::OpKind::Binary))
    if (op->binary == ir::BinaryKind::CeilDiv) types.push_back(fn.type(op->results[0]));
  ASSERT_EQ(types.size(), 3u) << ir::print_function(fn);
  EXPECT_EQ(types[0], (ir::TileType{DType::Int32, {16}}));
  EXPECT_EQ(types[1], (ir::TileType{DType::Int16, {16}}));   // a Python int takes the tile's dtype
  EXPECT_EQ(types[2], (ir::TileType{DType::UInt32, {16, 16}}));  // broadcast
  EXPECT_KERNEL_ERROR(pre + "    q = ct.cdiv(a.astype(ct.float32), b)\n", sig, ErrorKind::Type,
                      "cdiv() takes integer scalars or tiles, got float32");
}

}  // namespace
}  // namespace tile2cu
