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

// `for i in range(n): t = t + 1; dead = dead * 3` with only t read after the loop: dead's
// carried slot goes (init, body arg, yield operand, result) and the multiply with it; t stays.
// With `keep_dead_live`, t's update reads dead, so dead must stay.
std::string carried_loop_after_dce(bool keep_dead_live) {
  Function fn;
  fn.kernel_name = fn.spec_name = "k";
  fn.arrays.push_back({"y", DType::Int32, 1, {std::nullopt}, false, false, true});
  fn.param_order.push_back({true, 0});
  auto scalar = [&](const char* name = "") { return fn.new_value({DType::Int32, {}}, name); };
  ValueId zero = scalar(), iv = scalar("i"), t_arg = scalar("t"), dead_arg = scalar("dead");
  ValueId t_next = scalar("t"), dead_next = scalar("dead"), t_out = scalar("t"), dead_out = scalar("dead");
  Op c = op(OpKind::Constant, {}, {zero});
  c.literal = __int128(0);
  fn.body.ops.push_back(c);
  Op loop = op(OpKind::For, {zero, zero, zero, zero, zero}, {t_out, dead_out});
  loop.regions.resize(1);
  loop.regions[0].args = {iv, t_arg, dead_arg};
  Op add = op(OpKind::Binary, {t_arg, keep_dead_live ? dead_arg : iv}, {t_next});
  Op mul = op(OpKind::Binary, {dead_arg, iv}, {dead_next});
  mul.binary = BinaryKind::Mul;
  loop.regions[0].ops.push_back(add);
  loop.regions[0].ops.push_back(mul);
  loop.regions[0].ops.push_back(op(OpKind::Yield, {t_next, dead_next}));
  fn.body.ops.push_back(loop);
  Op store = op(OpKind::Store, {zero, t_out});
  store.param = 0;
  store.order = {0};
  fn.body.ops.push_back(store);
  verify(fn);
  eliminate_dead_code(fn);
  verify(fn);
  return print_function(fn);
}

TEST(DeadCode, DropsALoopCarriedValueNothingReadsAfterTheLoop) {
  std::string text = carried_loop_after_dce(false);
  EXPECT_EQ(text.find("binary mul"), std::string::npos) << text;
  EXPECT_EQ(text.find(".dead"), std::string::npos) << text;
  EXPECT_NE(text.find("binary add"), std::string::npos) << text;
}

TEST(DeadCode, KeepsACarriedValueThatAnotherCarriedValueReads) {
  std::string text = carried_loop_after_dce(true);
  EXPECT_NE(text.find("binary mul"), std::string::npos) << text;
  EXPECT_NE(text.find(".dead"), std::string::npos) << text;
}

// An if that stays for its store but whose result nobody reads loses the result and what
// computed it in each branch.
TEST(DeadCode, DropsTheUnreadResultOfAnIfThatStays) {
  Function fn;
  fn.kernel_name = fn.spec_name = "k";
  fn.arrays.push_back({"y", DType::Int32, 1, {std::nullopt}, false, false, true});
  fn.param_order.push_back({true, 0});
  ValueId bid = fn.new_value({DType::Int32, {}}, "bid"), cond = fn.new_value({DType::Bool, {}});
  ValueId then_r = fn.new_value({DType::Int32, {}}, "r"), r = fn.new_value({DType::Int32, {}}, "r");
  fn.body.ops.push_back(op(OpKind::BlockId, {}, {bid}));
  Op cmp = op(OpKind::Compare, {bid, bid}, {cond});
  fn.body.ops.push_back(cmp);
  Op branch = op(OpKind::If, {cond}, {r});
  branch.regions.resize(2);
  Op store = op(OpKind::Store, {bid, bid});
  store.param = 0;
  store.order = {0};
  branch.regions[0].ops.push_back(store);
  Op mul = op(OpKind::Binary, {bid, bid}, {then_r});
  mul.binary = BinaryKind::Mul;
  branch.regions[0].ops.push_back(mul);
  branch.regions[0].ops.push_back(op(OpKind::Yield, {then_r}));
  branch.regions[1].ops.push_back(op(OpKind::Yield, {bid}));
  fn.body.ops.push_back(branch);
  verify(fn);
  eliminate_dead_code(fn);
  verify(fn);
  std::string text = print_function(fn);
  EXPECT_EQ(text.find("binary mul"), std::string::npos) << text;
  EXPECT_EQ(text.find(".r"), std::string::npos) << text;
  EXPECT_NE(text.find("store"), std::string::npos) << text;
}

}  // namespace
}  // namespace tile2cu::ir
