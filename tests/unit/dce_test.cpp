// Dead-code elimination over Tile IR built by hand.
#include <gtest/gtest.h>

#include "ir/passes/dce.hpp"
#include "ir/printer.hpp"
#include "ir/verifier.hpp"

namespace tile2cu::ir {
namespace {

Op op(OpKind kind, std::vector<ValueId> operands = {}, std::vector<ValueId> results = {}) {
  Op o;
  o.kind = kind;
  o.operands = std::move(operands);
  o.results = std::move(results);
  return o;
}

TEST(DeadCode, DropsUnreadPureOpsTransitivelyAndKeepsStores) {
  Function fn;
  fn.kernel_name = fn.spec_name = "k";
  fn.arrays.push_back({"y", DType::Int32, 1, {std::nullopt}, false, false, true});
  fn.param_order.push_back({true, 0});
  ValueId bid = fn.new_value({DType::Int32, {}}, "bid");
  ValueId one = fn.new_value({DType::Int32, {}});
  ValueId unused = fn.new_value({DType::Int32, {}}, "unused");
  fn.body.ops.push_back(op(OpKind::BlockId, {}, {bid}));
  Op c = op(OpKind::Constant, {}, {one});
  c.literal = __int128(1);
  fn.body.ops.push_back(c);
  Op add = op(OpKind::Binary, {bid, one}, {unused});  // reads `one`, read by nobody
  add.binary = BinaryKind::Add;
  fn.body.ops.push_back(add);
  Op store = op(OpKind::Store, {bid, bid});
  store.param = 0;
  store.order = {0};
  fn.body.ops.push_back(store);
  verify(fn);
  eliminate_dead_code(fn);
  verify(fn);
  std::string text = print_function(fn);
  EXPECT_EQ(text.find("binary"), std::string::npos) << text;
  EXPECT_EQ(text.find("constant"), std::string::npos) << text;  // dead once the add is gone
  EXPECT_NE(text.find("store"), std::string::npos) << text;
  EXPECT_NE(text.find("block_id"), std::string::npos) << text;
}

TEST(DeadCode, KeepsAnIfThatBreaksOutOfALoop) {
  Function fn;
  fn.kernel_name = fn.spec_name = "k";
  ValueId lo = fn.new_value({DType::Int32, {}}), iv = fn.new_value({DType::Int32, {}}, "i");
  ValueId cond = fn.new_value({DType::Bool, {}});
  Op c = op(OpKind::Constant, {}, {lo});
  c.literal = __int128(0);
  fn.body.ops.push_back(c);
  Op loop = op(OpKind::For, {lo, lo, lo});
  loop.regions.resize(1);
  loop.regions[0].args = {iv};
  Op cmp = op(OpKind::Compare, {iv, iv}, {cond});
  loop.regions[0].ops.push_back(cmp);
  Op branch = op(OpKind::If, {cond});
  branch.regions.resize(2);
  branch.regions[0].ops.push_back(op(OpKind::Break));
  branch.regions[1].ops.push_back(op(OpKind::Yield));
  loop.regions[0].ops.push_back(branch);
  loop.regions[0].ops.push_back(op(OpKind::Yield));
  fn.body.ops.push_back(loop);
  verify(fn);
  eliminate_dead_code(fn);
  verify(fn);
  std::string text = print_function(fn);
  EXPECT_NE(text.find("break"), std::string::npos) << text;
  EXPECT_NE(text.find("compare"), std::string::npos) << text;
}

}  // namespace
}  // namespace tile2cu::ir
