// Tile IR built by hand: the verifier accepts well-formed functions and rejects broken ones,
// and the printer's text form is stable.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "ir/ir.hpp"
#include "ir/printer.hpp"
#include "ir/verifier.hpp"

namespace tile2cu::ir {
namespace {

const TileType kI32{DType::Int32, {}};
const TileType kBool{DType::Bool, {}};
const TileType kF32{DType::Float32, {}};
const TileType kTileF32{DType::Float32, {64}};
const TileType kTileF16{DType::Float16, {64}};

// Appends ops to one block of a function under construction.
class Builder {
 public:
  Builder(Function& fn, Block& block) : fn_(fn), block_(&block) {}

  ValueId op(OpKind kind, std::vector<ValueId> operands, const TileType& type,
             const std::string& name = {}) {
    Op o;
    o.kind = kind;
    o.operands = std::move(operands);
    ValueId r = fn_.new_value(type, name);
    o.results.push_back(r);
    block_->ops.push_back(std::move(o));
    return r;
  }
  Op& last() { return block_->ops.back(); }

  ValueId constant(Literal lit, const TileType& type, const std::string& name = {}) {
    ValueId v = op(OpKind::Constant, {}, type, name);
    last().literal = lit;
    return v;
  }
  ValueId binary(BinaryKind k, ValueId a, ValueId b, const TileType& type, const std::string& name = {}) {
    ValueId v = op(OpKind::Binary, {a, b}, type, name);
    last().binary = k;
    return v;
  }
  void terminator(OpKind kind, std::vector<ValueId> operands = {}) {
    Op o;
    o.kind = kind;
    o.operands = std::move(operands);
    block_->ops.push_back(std::move(o));
  }
  void push(Op op) { block_->ops.push_back(std::move(op)); }

 private:
  Function& fn_;
  Block* block_;
};

// x: f32[?] (read), y: f32[?] (written); y[bid] = x[bid] * 2.0
Function scale_kernel() {
  Function fn;
  fn.kernel_name = "scale";
  fn.spec_name = "scale_f32";
  fn.signature = "x=float32[?], y=float32[?], TILE=64";
  fn.arrays.push_back({"x", DType::Float32, 1, {std::nullopt}, false, false, false});
  fn.arrays.push_back({"y", DType::Float32, 1, {std::nullopt}, true, true, true});
  fn.param_order = {{true, 0}, {true, 1}};
  Builder b(fn, fn.body);
  ValueId bid = b.op(OpKind::BlockId, {}, kI32, "block");
  b.last().axis = 0;
  ValueId xt = b.op(OpKind::Load, {bid}, kTileF32, "xt");
  b.last().param = 0;
  b.last().tile_shape = {64};
  b.last().order = {0};
  b.last().padding = PaddingMode::Zero;
  ValueId two = b.constant(2.0, kF32);
  ValueId two_t = b.op(OpKind::Broadcast, {two}, kTileF32);
  ValueId prod = b.binary(BinaryKind::Mul, xt, two_t, kTileF32, "prod");
  Op store;
  store.kind = OpKind::Store;
  store.operands = {bid, prod};
  store.param = 1;
  store.tile_shape = {64};
  store.order = {0};
  b.push(std::move(store));
  return fn;
}

// acc = zeros; for i in range(0, n, 1): acc = acc + acc; y[0] = acc
Function loop_kernel() {
  Function fn;
  fn.kernel_name = "loop";
  fn.spec_name = "loop";
  fn.arrays.push_back({"y", DType::Float32, 1, {std::nullopt}, false, false, true});
  fn.scalars.push_back({"n", DType::Int32});
  fn.param_order = {{true, 0}, {false, 0}};
  Builder b(fn, fn.body);
  ValueId n = b.op(OpKind::ScalarParam, {}, kI32, "n");
  b.last().param = 0;
  ValueId zero = b.constant(__int128(0), kI32);
  ValueId one = b.constant(__int128(1), kI32);
  ValueId fzero = b.constant(0.0, kF32);
  ValueId acc0 = b.op(OpKind::Broadcast, {fzero}, kTileF32, "acc");

  Op loop;
  loop.kind = OpKind::For;
  loop.operands = {zero, n, one, acc0};
  loop.regions.resize(1);
  Block& body = loop.regions[0];
  ValueId iv = fn.new_value(kI32, "i");
  ValueId acc = fn.new_value(kTileF32, "acc");
  body.args = {iv, acc};
  Builder in(fn, body);
  ValueId next = in.binary(BinaryKind::Add, acc, acc, kTileF32, "acc");
  in.terminator(OpKind::Yield, {next});
  ValueId result = fn.new_value(kTileF32, "acc");
  loop.results = {result};
  b.push(std::move(loop));

  Op store;
  store.kind = OpKind::Store;
  store.operands = {zero, result};
  store.param = 0;
  store.tile_shape = {64};
  store.order = {0};
  b.push(std::move(store));
  return fn;
}

std::string verify_error(const Function& fn) {
  try {
    verify(fn);
  } catch (const std::logic_error& e) {
    return e.what();
  }
  return "";
}

#define EXPECT_REJECTED(fn, substring)                                              \
  do {                                                                              \
    std::string what_ = verify_error(fn);                                           \
    EXPECT_FALSE(what_.empty()) << "the verifier accepted:\n" << print_function(fn); \
    EXPECT_NE(what_.find(substring), std::string::npos) << what_;                   \
  } while (0)

// ---- accepted -------------------------------------------------------------------------------

TEST(Verifier, AcceptsStraightLineKernel) { EXPECT_NO_THROW(verify(scale_kernel())); }

TEST(Verifier, AcceptsForWithCarriedValue) { EXPECT_NO_THROW(verify(loop_kernel())); }

TEST(Verifier, AcceptsIfWithResultsAndWhile) {
  Function fn;
  fn.kernel_name = fn.spec_name = "k";
  Builder b(fn, fn.body);
  ValueId bid = b.op(OpKind::BlockId, {}, kI32, "bid");
  ValueId three = b.constant(__int128(3), kI32);
  ValueId cond = b.op(OpKind::Compare, {bid, three}, kBool);
  b.last().compare = CompareKind::Lt;

  Op branch;
  branch.kind = OpKind::If;
  branch.operands = {cond};
  branch.regions.resize(2);
  Builder then_b(fn, branch.regions[0]);
  ValueId a = then_b.constant(1.0, kF32);
  then_b.terminator(OpKind::Yield, {a});
  Builder else_b(fn, branch.regions[1]);
  ValueId c = else_b.constant(2.0, kF32);
  else_b.terminator(OpKind::Yield, {c});
  ValueId picked = fn.new_value(kF32, "v");
  branch.results = {picked};
  b.push(std::move(branch));

  // while v < 100: v = v * 2   (break out of the body when bid == 0)
  Op loop;
  loop.kind = OpKind::While;
  loop.operands = {picked};
  loop.regions.resize(2);
  ValueId cv = fn.new_value(kF32, "v");
  loop.regions[0].args = {cv};
  Builder cond_b(fn, loop.regions[0]);
  ValueId hundred = cond_b.constant(100.0, kF32);
  ValueId lt = cond_b.op(OpKind::Compare, {cv, hundred}, kBool);
  cond_b.last().compare = CompareKind::Lt;
  cond_b.terminator(OpKind::Condition, {lt});
  ValueId bv = fn.new_value(kF32, "v");
  loop.regions[1].args = {bv};
  Builder body_b(fn, loop.regions[1]);
  ValueId zero = body_b.constant(__int128(0), kI32);
  ValueId is_first = body_b.op(OpKind::Compare, {bid, zero}, kBool);
  body_b.last().compare = CompareKind::Eq;
  Op early;
  early.kind = OpKind::If;
  early.operands = {is_first};
  early.regions.resize(2);
  Builder(fn, early.regions[0]).terminator(OpKind::Break, {bv});
  Builder(fn, early.regions[1]).terminator(OpKind::Yield);
  body_b.push(std::move(early));
  ValueId two = body_b.constant(2.0, kF32);
  ValueId doubled = body_b.binary(BinaryKind::Mul, bv, two, kF32);
  body_b.terminator(OpKind::Yield, {doubled});
  loop.results = {fn.new_value(kF32, "v")};
  b.push(std::move(loop));

  EXPECT_NO_THROW(verify(fn)) << print_function(fn);
}

// ---- rejected -------------------------------------------------------------------------------

TEST(Verifier, RejectsBinaryOperandTypeMismatch) {
  Function fn = scale_kernel();
  // Make the broadcast constant an f16 tile: f32 * f16 without a convert.
  Op& bcast = fn.body.ops[3];
  ASSERT_EQ(bcast.kind, OpKind::Broadcast);
  fn.values[bcast.results[0]].type = kTileF16;
  EXPECT_REJECTED(fn, "operand types differ");
}

TEST(Verifier, RejectsBinaryOperandShapeMismatch) {
  Function fn = scale_kernel();
  Op& bcast = fn.body.ops[3];
  fn.values[bcast.results[0]].type = TileType{DType::Float32, {32}};
  EXPECT_REJECTED(fn, "operand types differ");
}

TEST(Verifier, RejectsBinaryResultTypeMismatch) {
  Function fn = scale_kernel();
  Op& mul = fn.body.ops[4];
  ASSERT_EQ(mul.kind, OpKind::Binary);
  fn.values[mul.results[0]].type = kTileF16;
  EXPECT_REJECTED(fn, "result type");
}

TEST(Verifier, RejectsUseBeforeDef) {
  Function fn = scale_kernel();
  // The multiply moves in front of the load that defines its operand.
  std::swap(fn.body.ops[1], fn.body.ops[4]);
  EXPECT_REJECTED(fn, "not visible");
}

TEST(Verifier, RejectsUndefinedValue) {
  Function fn = scale_kernel();
  ValueId orphan = fn.new_value(kTileF32, "orphan");
  fn.body.ops[4].operands[1] = orphan;  // never defined by any op
  EXPECT_REJECTED(fn, "not visible");
}

TEST(Verifier, RejectsUseOfRegionValueOutsideIt) {
  Function fn = loop_kernel();
  // Store the body's sum instead of the loop result: it is not visible after the loop.
  Op& loop = fn.body.ops[5];
  ASSERT_EQ(loop.kind, OpKind::For);
  ValueId inner = loop.regions[0].ops[0].results[0];
  fn.body.ops[6].operands[1] = inner;
  EXPECT_REJECTED(fn, "not visible");
}

TEST(Verifier, RejectsUseOfLoopArgOutsideTheLoop) {
  Function fn = loop_kernel();
  ValueId iv = fn.body.ops[5].regions[0].args[0];
  fn.body.ops[6].operands[0] = iv;
  EXPECT_REJECTED(fn, "not visible");
}

TEST(Verifier, RejectsValueDefinedTwice) {
  Function fn = scale_kernel();
  fn.body.ops[4].results[0] = fn.body.ops[1].results[0];  // mul redefines the load's value
  EXPECT_REJECTED(fn, "defined twice");
}

TEST(Verifier, RejectsRegionNotEndingInYield) {
  Function fn = loop_kernel();
  Block& body = fn.body.ops[5].regions[0];
  body.ops.pop_back();  // drop the yield
  EXPECT_REJECTED(fn, "yield");
}

TEST(Verifier, RejectsEmptyRegion) {
  Function fn = loop_kernel();
  Op& loop = fn.body.ops[5];
  loop.regions[0].ops.clear();
  EXPECT_REJECTED(fn, "empty region");
}

TEST(Verifier, RejectsYieldArity) {
  Function fn = loop_kernel();
  Block& body = fn.body.ops[5].regions[0];
  body.ops.back().operands.clear();  // the loop carries one value, the yield hands back none
  EXPECT_REJECTED(fn, "terminator operand count");
}

TEST(Verifier, RejectsForWithWrongArgCount) {
  Function fn = loop_kernel();
  Op& loop = fn.body.ops[5];
  loop.regions[0].args.pop_back();  // acc has no block argument any more
  EXPECT_FALSE(verify_error(fn).empty());
}

TEST(Verifier, RejectsBreakOutsideLoop) {
  Function fn = scale_kernel();
  Builder b(fn, fn.body);
  b.terminator(OpKind::Break);
  EXPECT_REJECTED(fn, "outside a loop");
}

TEST(Verifier, RejectsContinueInsideIfOutsideLoop) {
  Function fn;
  fn.kernel_name = fn.spec_name = "k";
  Builder b(fn, fn.body);
  ValueId t = b.constant(true, kBool);
  Op branch;
  branch.kind = OpKind::If;
  branch.operands = {t};
  branch.regions.resize(2);
  Builder(fn, branch.regions[0]).terminator(OpKind::Continue);
  Builder(fn, branch.regions[1]).terminator(OpKind::Yield);
  b.push(std::move(branch));
  EXPECT_REJECTED(fn, "outside a loop");
}

TEST(Verifier, RejectsIfOnANonBoolCondition) {
  Function fn;
  fn.kernel_name = fn.spec_name = "k";
  Builder b(fn, fn.body);
  ValueId n = b.constant(__int128(1), kI32);
  Op branch;
  branch.kind = OpKind::If;
  branch.operands = {n};
  branch.regions.resize(2);
  Builder(fn, branch.regions[0]).terminator(OpKind::Yield);
  Builder(fn, branch.regions[1]).terminator(OpKind::Yield);
  b.push(std::move(branch));
  EXPECT_REJECTED(fn, "bool");
}

TEST(Verifier, RejectsWhileWithoutCondition) {
  Function fn;
  fn.kernel_name = fn.spec_name = "k";
  Builder b(fn, fn.body);
  Op loop;
  loop.kind = OpKind::While;
  loop.regions.resize(2);
  Builder(fn, loop.regions[0]).constant(true, kBool);  // no Condition terminator
  Builder(fn, loop.regions[1]).terminator(OpKind::Yield);
  b.push(std::move(loop));
  EXPECT_REJECTED(fn, "condition");
}

TEST(Verifier, RejectsStoreDtypeMismatch) {
  Function fn = scale_kernel();
  fn.arrays[1].dtype = DType::Float16;  // y becomes f16; the stored tile is still f32
  EXPECT_REJECTED(fn, "store");
}

TEST(Verifier, RejectsLoadWithWrongIndexCount) {
  Function fn = scale_kernel();
  fn.body.ops[1].operands.push_back(fn.body.ops[0].results[0]);  // two indices, rank-1 array
  EXPECT_REJECTED(fn, "index");
}

TEST(Verifier, RejectsCompareWithNonBoolResult) {
  Function fn;
  fn.kernel_name = fn.spec_name = "k";
  Builder b(fn, fn.body);
  ValueId x = b.constant(__int128(1), kI32);
  b.op(OpKind::Compare, {x, x}, kI32);
  EXPECT_REJECTED(fn, "bool");
}

TEST(Verifier, RejectsBadBroadcast) {
  Function fn;
  fn.kernel_name = fn.spec_name = "k";
  Builder b(fn, fn.body);
  ValueId z = b.constant(0.0, kF32);
  ValueId t = b.op(OpKind::Broadcast, {z}, TileType{DType::Float32, {4, 8}});
  b.op(OpKind::Broadcast, {t}, TileType{DType::Float32, {4, 16}});  // 8 does not stretch to 16
  EXPECT_REJECTED(fn, "dims must match or be 1");
}

TEST(Verifier, RejectsReshapeChangingElementCount) {
  Function fn;
  fn.kernel_name = fn.spec_name = "k";
  Builder b(fn, fn.body);
  ValueId z = b.constant(0.0, kF32);
  ValueId t = b.op(OpKind::Broadcast, {z}, TileType{DType::Float32, {4, 8}});
  b.op(OpKind::Reshape, {t}, TileType{DType::Float32, {64}});
  EXPECT_REJECTED(fn, "element count");
}

// ---- printer --------------------------------------------------------------------------------

TEST(Printer, StraightLineKernel) {
  const std::string expected =
      "func @scale_f32 = scale(x=float32[?], y=float32[?], TILE=64)\n"
      "  param x: array<f32, [?]>\n"
      "  param y: array<f32, [?]> align16 contiguous written\n"
      "  %0.block = block_id axis=0 : i32\n"
      "  %1.xt = load x shape=(64,) padding=zero %0.block : tile<f32, 64>\n"
      "  %2 = constant 2.0 : f32\n"
      "  %3 = broadcast %2 : tile<f32, 64>\n"
      "  %4.prod = binary mul %1.xt, %3 : tile<f32, 64>\n"
      "  store y shape=(64,) %0.block, %4.prod\n";
  EXPECT_EQ(print_function(scale_kernel()), expected);
}

TEST(Printer, ForLoop) {
  const std::string expected =
      "func @loop = loop()\n"
      "  param y: array<f32, [?]> written\n"
      "  param n: i32\n"
      "  %0.n = scalar_param n : i32\n"
      "  %1 = constant 0 : i32\n"
      "  %2 = constant 1 : i32\n"
      "  %3 = constant 0.0 : f32\n"
      "  %4.acc = broadcast %3 : tile<f32, 64>\n"
      "  %8.acc = for %5.i = %1 to %0.n step %2 iter(%6.acc) init(%4.acc) : tile<f32, 64> {\n"
      "    %7.acc = binary add %6.acc, %6.acc : tile<f32, 64>\n"
      "    yield %7.acc\n"
      "  }\n"
      "  store y shape=(64,) %1, %8.acc\n";
  std::string printed = print_function(loop_kernel());
  EXPECT_EQ(printed, expected);
}

TEST(Printer, IsDeterministic) {
  EXPECT_EQ(print_function(scale_kernel()), print_function(scale_kernel()));
  EXPECT_EQ(print_function(loop_kernel()), print_function(loop_kernel()));
}

TEST(Printer, NonIdentityOrderAndAttributes) {
  Function fn;
  fn.kernel_name = fn.spec_name = "t";
  fn.arrays.push_back({"a", DType::Float16, 2, {std::nullopt, 32}, false, false, false});
  fn.param_order = {{true, 0}};
  Builder b(fn, fn.body);
  ValueId z = b.constant(__int128(0), kI32);
  b.op(OpKind::Load, {z, z}, TileType{DType::Float16, {16, 32}}, "at");
  b.last().param = 0;
  b.last().tile_shape = {16, 32};
  b.last().order = {1, 0};
  b.last().padding = PaddingMode::NegInf;
  ValueId e = b.op(OpKind::Unary, {1}, TileType{DType::Float16, {16, 32}});
  b.last().unary = UnaryKind::Exp2;
  b.last().flush_to_zero = true;
  ValueId d = b.binary(BinaryKind::Div, e, e, TileType{DType::Float16, {16, 32}});
  b.last().rounding = Rounding::Approx;
  (void)d;
  std::string printed = print_function(fn);
  EXPECT_NE(printed.find("  param a: array<f16, [?, 32]>\n"), std::string::npos) << printed;
  EXPECT_NE(printed.find("load a shape=(16, 32) order=(1, 0) padding=neg_inf %0, %0 : tile<f16, 16x32>"),
            std::string::npos) << printed;
  EXPECT_NE(printed.find("unary exp2 ftz %1.at : tile<f16, 16x32>"), std::string::npos) << printed;
  EXPECT_NE(printed.find("binary div rounding=approx %2, %2"), std::string::npos) << printed;
}

TEST(Printer, Literals) {
  EXPECT_EQ(literal_string(Literal{2.0}), "2.0");
  EXPECT_EQ(literal_string(Literal{0.5}), "0.5");
  EXPECT_EQ(literal_string(Literal{-1.5e-7}), "-1.5e-07");
  EXPECT_EQ(literal_string(Literal{static_cast<double>(INFINITY)}), "inf");
  EXPECT_EQ(literal_string(Literal{-static_cast<double>(INFINITY)}), "-inf");
  EXPECT_EQ(literal_string(Literal{static_cast<double>(NAN)}), "nan");
  EXPECT_EQ(literal_string(Literal{true}), "true");
  EXPECT_EQ(literal_string(Literal{false}), "false");
  EXPECT_EQ(literal_string(Literal{__int128(0)}), "0");
  EXPECT_EQ(literal_string(Literal{__int128(-42)}), "-42");
  EXPECT_EQ(literal_string(Literal{(static_cast<__int128>(1) << 64) - 1}), "18446744073709551615");
  EXPECT_EQ(literal_string(Literal{-(static_cast<__int128>(1) << 100)}),
            "-1267650600228229401496703205376");
}

TEST(Printer, TypeAndShapeStrings) {
  EXPECT_EQ(type_string(kF32), "f32");
  EXPECT_EQ(type_string(TileType{DType::BFloat16, {64, 128}}), "tile<bf16, 64x128>");
  EXPECT_EQ(shape_string({64}), "(64,)");
  EXPECT_EQ(shape_string({64, 128}), "(64, 128)");
  EXPECT_EQ(shape_string({}), "()");
  EXPECT_EQ(shape_elements({4, 8, 2}), 64);
  EXPECT_EQ(shape_elements({}), 1);
}

// What CSE compares: literals by their bits (0.0 and -0.0 are different values, a NaN equals
// itself) and every attribute, but not where an op came from.
TEST(SameAttributes, ComparesLiteralsByBitsAndIgnoresLocation) {
  Op a, b;
  a.kind = b.kind = OpKind::Constant;
  a.literal = 0.0;
  b.literal = -0.0;
  EXPECT_FALSE(same_attributes(a, b));
  a.literal = b.literal = std::nan("");
  EXPECT_TRUE(same_attributes(a, b));
  b.loc.line = 7;
  b.hoisted = true;
  EXPECT_TRUE(same_attributes(a, b));
  b.rounding = Rounding::RZ;
  EXPECT_FALSE(same_attributes(a, b));
  a.literal = __int128(1);
  b = a;
  b.literal = true;
  EXPECT_FALSE(same_attributes(a, b));
}

}  // namespace
}  // namespace tile2cu::ir
