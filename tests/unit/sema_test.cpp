// Sema: small kernels from source text, specialized on one signature. The tests pin down
// promotion of loose literals (spec b.3, b.5), Python constant folding (a.6, c.4), dead
// branches, module globals, helpers, control flow (a.5) and the errors cuTile raises.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "frontend/parser.hpp"
#include "ir/ir.hpp"
#include "ir/printer.hpp"
#include "ir/verifier.hpp"
#include "sema/sema.hpp"
#include "sema/signature.hpp"
#include "support/diagnostic.hpp"

namespace tile2cu {
namespace {

using ir::OpKind;

const char* kHeader = "import math\nimport cuda.tile as ct\n\n";

// Parses `source` (prefixed with the usual imports), specializes the only (or the named)
// kernel on `sig`, and verifies the result.
ir::Function compile(const std::string& body, const std::string& sig) {
  auto file = std::make_shared<SourceFile>("k.py", kHeader + body);
  auto module = std::make_shared<const ast::Module>(parse_module(file));
  auto scope = sema::evaluate_module(module);
  KernelSignature s = parse_signature(sig, "--sig");
  if (s.kernel.empty()) {
    if (scope->kernel_order.size() != 1) throw std::runtime_error("test kernel count");
    s.kernel = scope->kernel_order[0];
  }
  ir::Function fn = sema::specialize(*scope, s);
  ir::verify(fn);
  return fn;
}

struct Failure {
  bool thrown = false;
  ErrorKind kind = ErrorKind::Usage;
  std::string message;
  SourceRange range;
};

Failure compile_failure(const std::string& body, const std::string& sig) {
  Failure f;
  try {
    ir::Function fn = compile(body, sig);
    ADD_FAILURE() << "expected a CompileError; got IR:\n" << ir::print_function(fn);
  } catch (const CompileError& e) {
    f.thrown = true;
    f.kind = e.kind();
    f.message = e.message();
    if (!e.frames().empty()) f.range = e.frames().front().range;
  }
  return f;
}

#define EXPECT_COMPILE_ERROR(body, sig, kind_, substring)                        \
  do {                                                                           \
    Failure f_ = compile_failure(body, sig);                                     \
    EXPECT_TRUE(f_.thrown);                                                      \
    EXPECT_EQ(f_.kind, kind_) << f_.message;                                     \
    EXPECT_NE(f_.message.find(substring), std::string::npos) << f_.message;      \
  } while (0)

void collect(const ir::Block& b, OpKind kind, std::vector<const ir::Op*>& out) {
  for (const ir::Op& op : b.ops) {
    if (op.kind == kind) out.push_back(&op);
    for (const ir::Block& r : op.regions) collect(r, kind, out);
  }
}

std::vector<const ir::Op*> ops_of(const ir::Function& fn, OpKind kind) {
  std::vector<const ir::Op*> out;
  collect(fn.body, kind, out);
  return out;
}

std::vector<const ir::Op*> binaries(const ir::Function& fn, ir::BinaryKind k) {
  std::vector<const ir::Op*> out;
  for (const ir::Op* op : ops_of(fn, OpKind::Binary))
    if (op->binary == k) out.push_back(op);
  return out;
}

// The single op of `kind`; fails the test if there is not exactly one.
const ir::Op& only(const ir::Function& fn, OpKind kind) {
  auto ops = ops_of(fn, kind);
  if (ops.size() != 1)
    throw std::runtime_error(std::string("expected exactly one ") + ir::op_kind_name(kind) + " op, got " +
                             std::to_string(ops.size()) + " in:\n" + ir::print_function(fn));
  return *ops[0];
}

const ir::Op& only_binary(const ir::Function& fn, ir::BinaryKind k) {
  auto ops = binaries(fn, k);
  if (ops.size() != 1)
    throw std::runtime_error(std::string("expected exactly one binary ") + ir::binary_kind_name(k) +
                             " op, got " + std::to_string(ops.size()) + " in:\n" + ir::print_function(fn));
  return *ops[0];
}

std::string result_type(const ir::Function& fn, const ir::Op& op) {
  return ir::type_string(fn.type(op.results.at(0)));
}

// The value the (only) store writes.
ir::ValueId stored_value(const ir::Function& fn) { return only(fn, OpKind::Store).operands.back(); }

// Constants of one dtype, as printed literals.
std::vector<std::string> constants_of(const ir::Function& fn, DType dt) {
  std::vector<std::string> out;
  for (const ir::Op* op : ops_of(fn, OpKind::Constant))
    if (fn.type(op->results[0]).dtype == dt) out.push_back(ir::literal_string(op->literal));
  return out;
}

// A kernel storing `expr` (in terms of the loaded tile `t`) to y.
std::string unary_kernel(const std::string& expr) {
  return "@ct.kernel\n"
         "def k(x, y, TILE: ct.Constant[int]):\n"
         "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
         "    ct.store(y, index=(ct.bid(0),), tile=" + expr + ")\n";
}

// A kernel that writes a compile-time expression into a tile of dtype `dtype`.
std::string fill_kernel(const std::string& expr, const std::string& dtype) {
  return "@ct.kernel\n"
         "def k(y):\n"
         "    ct.store(y, index=(0,), tile=ct.full((16,), " + expr + ", dtype=ct." + dtype + "))\n";
}

// The folded value of a constant expression, as the literal of the fill constant.
std::string folded(const std::string& expr, DType dt) {
  std::string dname = dtype_name(dt);
  ir::Function fn = compile(fill_kernel(expr, dname), std::string("y=") + dname + "[?]");
  auto cs = constants_of(fn, dt);
  if (dt == DType::Int32) {
    // The store index (0,) is an int32 constant too: drop one "0".
    auto it = std::find(cs.begin(), cs.end(), "0");
    if (it != cs.end() && cs.size() > 1) cs.erase(it);
  }
  if (cs.size() != 1) throw std::runtime_error("expected one fill constant in:\n" + ir::print_function(fn));
  return cs[0];
}

// ---- promotion of loose literals (spec b.3, b.5) ----------------------------------------------

TEST(SemaPromotion, F16TileTimesFloatLiteralStaysF16) {
  ir::Function fn = compile(unary_kernel("t * 2.0"), "x=float16[?], y=float16[?], TILE=64");
  EXPECT_EQ(result_type(fn, only_binary(fn, ir::BinaryKind::Mul)), "tile<f16, 64>");
  EXPECT_TRUE(ops_of(fn, OpKind::Convert).empty()) << ir::print_function(fn);
  EXPECT_EQ(constants_of(fn, DType::Float16), std::vector<std::string>{"2.0"});
}

TEST(SemaPromotion, ReflectedLiteralOperandsPromoteTheSame) {
  ir::Function fn = compile(unary_kernel("2 * t - 1.5"), "x=bfloat16[?], y=bfloat16[?], TILE=64");
  EXPECT_EQ(result_type(fn, only_binary(fn, ir::BinaryKind::Mul)), "tile<bf16, 64>");
  EXPECT_EQ(result_type(fn, only_binary(fn, ir::BinaryKind::Sub)), "tile<bf16, 64>");
  EXPECT_TRUE(ops_of(fn, OpKind::Convert).empty()) << ir::print_function(fn);
}

TEST(SemaPromotion, IntTileTimesFloatLiteralIsF32) {
  ir::Function fn = compile(unary_kernel("t * 0.5"), "x=int32[?], y=float32[?], TILE=64");
  const ir::Op& mul = only_binary(fn, ir::BinaryKind::Mul);
  EXPECT_EQ(result_type(fn, mul), "tile<f32, 64>");
  const ir::Op& conv = only(fn, OpKind::Convert);
  EXPECT_EQ(ir::type_string(fn.type(conv.operands[0])), "tile<i32, 64>");
  EXPECT_EQ(result_type(fn, conv), "tile<f32, 64>");
}

TEST(SemaPromotion, IntTileWithIntLiteralKeepsItsWidth) {
  ir::Function fn = compile(unary_kernel("t + 1"), "x=int8[?], y=int8[?], TILE=64");
  EXPECT_EQ(result_type(fn, only_binary(fn, ir::BinaryKind::Add)), "tile<i8, 64>");
  ir::Function u = compile(unary_kernel("t * 255"), "x=uint8[?], y=uint8[?], TILE=64");
  EXPECT_EQ(result_type(u, only_binary(u, ir::BinaryKind::Mul)), "tile<u8, 64>");
}

TEST(SemaPromotion, BoolTilePlusIntLiteralIsI32) {
  ir::Function fn = compile(unary_kernel("(t > 0) + 1"), "x=float32[?], y=int32[?], TILE=64");
  EXPECT_EQ(result_type(fn, only_binary(fn, ir::BinaryKind::Add)), "tile<i32, 64>");
}

TEST(SemaPromotion, IntOverIntTrueDivisionIsF32) {
  const std::string src =
      "@ct.kernel\n"
      "def k(a, b, y, TILE: ct.Constant[int]):\n"
      "    ta = ct.load(a, index=(ct.bid(0),), shape=(TILE,))\n"
      "    tb = ct.load(b, index=(ct.bid(0),), shape=(TILE,))\n"
      "    ct.store(y, index=(ct.bid(0),), tile=ta / tb)\n";
  for (const char* it : {"int32", "int64", "int8", "uint16"}) {
    SCOPED_TRACE(it);
    ir::Function fn = compile(src, std::string("a=") + it + "[?], b=" + it + "[?], y=float32[?], TILE=64");
    EXPECT_EQ(result_type(fn, only_binary(fn, ir::BinaryKind::Div)), "tile<f32, 64>");
  }
  // With a literal divisor, too.
  ir::Function lit = compile(unary_kernel("t / 2"), "x=int32[?], y=float32[?], TILE=64");
  EXPECT_EQ(result_type(lit, only_binary(lit, ir::BinaryKind::Div)), "tile<f32, 64>");
  // A float tile keeps its dtype.
  ir::Function half = compile(unary_kernel("t / 2"), "x=float16[?], y=float16[?], TILE=64");
  EXPECT_EQ(result_type(half, only_binary(half, ir::BinaryKind::Div)), "tile<f16, 64>");
}

TEST(SemaPromotion, Bf16TileTimesF32ScalarParamIsF32) {
  const std::string src =
      "@ct.kernel\n"
      "def k(x, y, eps, TILE: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    ct.store(y, index=(ct.bid(0),), tile=t * eps)\n";
  ir::Function fn = compile(src, "x=bfloat16[?], y=float32[?], eps=float32, TILE=64");
  EXPECT_EQ(result_type(fn, only_binary(fn, ir::BinaryKind::Mul)), "tile<f32, 64>");
  // ... while the literal stays bf16 (spec b.5's example).
  ir::Function lit = compile(unary_kernel("t * 1e-5"), "x=bfloat16[?], y=bfloat16[?], TILE=64");
  EXPECT_EQ(result_type(lit, only_binary(lit, ir::BinaryKind::Mul)), "tile<bf16, 64>");
  // And storing the f32 product into a bf16 array is refused (b.6).
  EXPECT_COMPILE_ERROR(src, "x=bfloat16[?], y=bfloat16[?], eps=float32, TILE=64", ErrorKind::Type,
                       "cannot implicitly cast float32 to bfloat16");
}

TEST(SemaPromotion, IntegerLiteralOutOfRangeOfTheTile) {
  EXPECT_COMPILE_ERROR(unary_kernel("t + 300"), "x=int8[?], y=int8[?], TILE=64", ErrorKind::Value,
                       "Integer constant 300 is out of range of int8");
  EXPECT_COMPILE_ERROR(unary_kernel("t + -1"), "x=uint8[?], y=uint8[?], TILE=64", ErrorKind::Value,
                       "out of range of uint8");
}

TEST(SemaPromotion, RefusedTypedPairs) {
  const std::string src =
      "@ct.kernel\n"
      "def k(a, b, y, TILE: ct.Constant[int]):\n"
      "    ta = ct.load(a, index=(ct.bid(0),), shape=(TILE,))\n"
      "    tb = ct.load(b, index=(ct.bid(0),), shape=(TILE,))\n"
      "    ct.store(y, index=(ct.bid(0),), tile=ta + tb)\n";
  EXPECT_COMPILE_ERROR(src, "a=float16[?], b=bfloat16[?], y=float32[?], TILE=64", ErrorKind::Type,
                       "Implicit promotion of float16 and bfloat16 is not supported");
  EXPECT_COMPILE_ERROR(src, "a=int32[?], b=uint32[?], y=int64[?], TILE=64", ErrorKind::Type,
                       "Implicit promotion of int32 and uint32");
  // A typed pair from the table: i16 + i64 -> i64, u8 + f16 -> f16.
  ir::Function fn = compile(src, "a=int16[?], b=int64[?], y=int64[?], TILE=64");
  EXPECT_EQ(result_type(fn, only_binary(fn, ir::BinaryKind::Add)), "tile<i64, 64>");
  ir::Function g = compile(src, "a=uint8[?], b=float16[?], y=float16[?], TILE=64");
  EXPECT_EQ(result_type(g, only_binary(g, ir::BinaryKind::Add)), "tile<f16, 64>");
}

TEST(SemaPromotion, BoolArithmeticIsRefused) {
  EXPECT_COMPILE_ERROR(unary_kernel("(t > 0) + (t > 1)"), "x=float32[?], y=int32[?], TILE=64",
                       ErrorKind::Type, "does not support bool");
}

TEST(SemaPromotion, StoreNeedsALosslessCast) {
  EXPECT_COMPILE_ERROR(unary_kernel("t"), "x=float32[?], y=float16[?], TILE=64", ErrorKind::Type,
                       "cannot implicitly cast float32 to float16");
  // Widening is inserted silently.
  ir::Function fn = compile(unary_kernel("t"), "x=float16[?], y=float32[?], TILE=64");
  EXPECT_EQ(result_type(fn, only(fn, OpKind::Convert)), "tile<f32, 64>");
  // A float literal into an int array is refused; an int literal into a float array is fine.
  EXPECT_COMPILE_ERROR(unary_kernel("0.5"), "x=int32[?], y=int32[?], TILE=64", ErrorKind::Type,
                       "into an array of int32");
  EXPECT_COMPILE_ERROR(unary_kernel("300"), "x=int8[?], y=int8[?], TILE=64", ErrorKind::Value,
                       "out of range of int8");
  EXPECT_NO_THROW(compile(unary_kernel("0"), "x=float32[?], y=float32[?], TILE=64"));
}

TEST(SemaPromotion, WhereWithLiterals) {
  ir::Function fn = compile(unary_kernel("ct.where(t > 0, t, 0)"), "x=float16[?], y=float16[?], TILE=64");
  EXPECT_EQ(result_type(fn, only(fn, OpKind::Select)), "tile<f16, 64>");
  ir::Function two = compile(unary_kernel("ct.where(t > 0, 0.0, -math.inf)"), "x=float16[?], y=float32[?], TILE=64");
  EXPECT_EQ(result_type(two, only(two, OpKind::Select)), "tile<f32, 64>");
}

TEST(SemaPromotion, UnaryOperatorsAndMath) {
  // Transcendentals turn ints into float32; abs keeps the dtype; -bool is int32 (b.5).
  ir::Function e = compile(unary_kernel("ct.exp(t)"), "x=int32[?], y=float32[?], TILE=64");
  EXPECT_EQ(result_type(e, only(e, OpKind::Unary)), "tile<f32, 64>");
  ir::Function h = compile(unary_kernel("ct.sqrt(t)"), "x=float16[?], y=float16[?], TILE=64");
  EXPECT_EQ(result_type(h, only(h, OpKind::Unary)), "tile<f16, 64>");
  ir::Function a = compile(unary_kernel("abs(t)"), "x=int8[?], y=int8[?], TILE=64");
  EXPECT_EQ(result_type(a, only(a, OpKind::Unary)), "tile<i8, 64>");
  ir::Function n = compile(unary_kernel("-(t > 0)"), "x=float32[?], y=int32[?], TILE=64");
  EXPECT_EQ(result_type(n, only(n, OpKind::Unary)), "tile<i32, 64>");
  EXPECT_COMPILE_ERROR(unary_kernel("ct.floor(t)"), "x=int32[?], y=int32[?], TILE=64", ErrorKind::Type,
                       "requires a float");
  EXPECT_COMPILE_ERROR(unary_kernel("~t"), "x=float32[?], y=float32[?], TILE=64", ErrorKind::Type, "");
}

TEST(SemaPromotion, BitwiseOperands) {
  ir::Function lit = compile(unary_kernel("t & 0xFF"), "x=int16[?], y=int16[?], TILE=64");
  EXPECT_EQ(result_type(lit, only_binary(lit, ir::BinaryKind::BitAnd)), "tile<i16, 64>");
  const std::string two =
      "@ct.kernel\n"
      "def k(a, b, y, TILE: ct.Constant[int]):\n"
      "    ta = ct.load(a, index=(ct.bid(0),), shape=(TILE,))\n"
      "    tb = ct.load(b, index=(ct.bid(0),), shape=(TILE,))\n"
      "    ct.store(y, index=(ct.bid(0),), tile=ta ^ tb)\n";
  EXPECT_COMPILE_ERROR(two, "a=int32[?], b=int8[?], y=int32[?], TILE=64", ErrorKind::Type, "same data type");
  EXPECT_COMPILE_ERROR(unary_kernel("t | 1"), "x=float32[?], y=float32[?], TILE=64", ErrorKind::Type, "bitcast");
}

TEST(SemaPromotion, ComparisonsGiveBoolAndRuntimeIfExpIsASelect) {
  ir::Function fn = compile(unary_kernel("t if ct.bid(0) > 2 else t * 0.5"), "x=float32[?], y=float32[?], TILE=64");
  std::vector<const ir::Op*> cmps = ops_of(fn, OpKind::Compare);
  ASSERT_EQ(cmps.size(), 1u);
  EXPECT_EQ(result_type(fn, *cmps[0]), "b1");
  EXPECT_EQ(result_type(fn, only(fn, OpKind::Select)), "tile<f32, 64>");
  EXPECT_TRUE(ops_of(fn, OpKind::If).empty());
}

// ---- constant folding with Python semantics (spec a.6, c.4) -----------------------------------

TEST(SemaFolding, FloorDivAndModFollowPython) {
  EXPECT_EQ(folded("-7 // 2", DType::Int64), "-4");
  EXPECT_EQ(folded("7 // -2", DType::Int64), "-4");
  EXPECT_EQ(folded("-7 // -2", DType::Int64), "3");
  EXPECT_EQ(folded("7 // 2", DType::Int64), "3");
  EXPECT_EQ(folded("-8 // 2", DType::Int64), "-4");
  EXPECT_EQ(folded("-7 % 3", DType::Int64), "2");
  EXPECT_EQ(folded("7 % -3", DType::Int64), "-2");
  EXPECT_EQ(folded("-7 % -3", DType::Int64), "-1");
  EXPECT_EQ(folded("7 % 3", DType::Int64), "1");
  EXPECT_EQ(folded("-6 % 3", DType::Int64), "0");
}

TEST(SemaFolding, FloatFloorDivAndMod) {
  EXPECT_EQ(folded("-7.0 // 2", DType::Float64), "-4.0");
  EXPECT_EQ(folded("-7.5 % 2", DType::Float64), "0.5");
  EXPECT_EQ(folded("7.5 % -2", DType::Float64), "-0.5");
}

TEST(SemaFolding, ArithmeticStaysExactAndLoose) {
  EXPECT_EQ(folded("7 / 2", DType::Float64), "3.5");
  EXPECT_EQ(folded("2 ** 10", DType::Int64), "1024");
  EXPECT_EQ(folded("2 ** -1", DType::Float64), "0.5");
  EXPECT_EQ(folded("(1 << 40) + 1", DType::Int64), "1099511627777");
  EXPECT_EQ(folded("-(-8 >> 1)", DType::Int64), "4");
  EXPECT_EQ(folded("abs(-3) + max(2, 5) * 0", DType::Int64), "3");
  EXPECT_EQ(folded("ct.cdiv(-7, 2)", DType::Int64), "-3");
  EXPECT_EQ(folded("ct.cdiv(8, -3)", DType::Int64), "-2");
  EXPECT_EQ(folded("int(-2.7)", DType::Int64), "-2");
  EXPECT_EQ(folded("1 if 3 < 5 < 4 else 2", DType::Int64), "2");
  EXPECT_EQ(folded("1 if 1 < 2 < 3 else 2", DType::Int64), "1");
  EXPECT_EQ(folded("True + True", DType::Int64), "2");
}

TEST(SemaFolding, StrictlyTypedConstantsWrap) {
  EXPECT_EQ(folded("ct.int8(300)", DType::Int8), "44");
  EXPECT_EQ(folded("ct.uint8(-1)", DType::UInt8), "255");
  EXPECT_EQ(folded("ct.int16(-32769)", DType::Int16), "32767");
}

TEST(SemaFolding, DivisionByZeroIsAnError) {
  EXPECT_COMPILE_ERROR(fill_kernel("1 // 0", "int32"), "y=int32[?]", ErrorKind::Value, "by zero");
  EXPECT_COMPILE_ERROR(fill_kernel("1 % 0", "int32"), "y=int32[?]", ErrorKind::Value, "by zero");
}

// ---- dead branches (a.5, a.6) -----------------------------------------------------------------

const char* kDtypeBranch =
    "@ct.kernel\n"
    "def k(x, y, TILE: ct.Constant[int]):\n"
    "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
    "    if x.dtype == ct.float32:\n"
    "        r = t * 2.0\n"
    "    else:\n"
    "        r = no_such_helper(t) + ct.sigmoid(t)\n"
    "    ct.store(y, index=(ct.bid(0),), tile=r)\n";

TEST(SemaDeadBranch, ConstantDtypeConditionFolds) {
  ir::Function fn = compile(kDtypeBranch, "x=float32[?], y=float32[?], TILE=64");
  EXPECT_TRUE(ops_of(fn, OpKind::If).empty()) << ir::print_function(fn);
  EXPECT_EQ(binaries(fn, ir::BinaryKind::Mul).size(), 1u);
  EXPECT_EQ(stored_value(fn), only_binary(fn, ir::BinaryKind::Mul).results[0]);
}

TEST(SemaDeadBranch, TheOtherSpecializationCompilesTheOtherBranch) {
  Failure f = compile_failure(kDtypeBranch, "x=float16[?], y=float16[?], TILE=64");
  EXPECT_TRUE(f.thrown);
  EXPECT_NE(f.message.find("no_such_helper"), std::string::npos) << f.message;
  EXPECT_EQ(f.range.line, 10);  // the else line, after the 3 header lines
}

TEST(SemaDeadBranch, ConstantParameterAndIfExp) {
  const std::string src =
      "@ct.kernel\n"
      "def k(x, y, SWISH: ct.Constant[bool], TILE: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    if SWISH:\n"
      "        t = t * ct.sigmoid(t)\n"
      "    dt = ct.float64 if x.dtype == ct.float64 else ct.float32\n"
      "    if len(x.shape) == 2:\n"
      "        undefined_thing()\n"
      "    ct.store(y, index=(ct.bid(0),), tile=t.astype(dt))\n";
  ir::Function fn = compile(src, "x=float16[?], y=float32[?], SWISH=False, TILE=64");
  EXPECT_TRUE(ops_of(fn, OpKind::If).empty());
  EXPECT_EQ(ir::type_string(fn.type(stored_value(fn))), "tile<f32, 64>");
  EXPECT_COMPILE_ERROR(src, "x=float16[?], y=float32[?], SWISH=True, TILE=64", ErrorKind::Type, "sigmoid");
}

// ---- module-level constants (a.6) ------------------------------------------------------------

TEST(SemaGlobals, MathConstantsEnumsAndConstantAliases) {
  const std::string src =
      "SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)\n"
      "INV_LOG_2 = 1.0 / math.log(2)\n"
      "PAD = ct.PaddingMode.ZERO\n"
      "ConstInt = ct.Constant[int]\n"
      "HALF = ct.float16\n"
      "host_only = some_host_function()  # never read by the kernel\n"
      "\n"
      "@ct.kernel\n"
      "def k(x, y, TILE: ConstInt):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,), padding_mode=PAD)\n"
      "    v = t * SQRT_2_OVER_PI + INV_LOG_2\n"
      "    ct.store(y, index=(ct.bid(0),), tile=v.astype(HALF))\n"
      "\n"
      "if __name__ == '__main__':\n"
      "    print('host code')\n";
  ir::Function fn = compile(src, "x=float32[?], y=float16[?], TILE=128");
  const ir::Op& load = only(fn, OpKind::Load);
  EXPECT_EQ(load.padding, ir::PaddingMode::Zero);
  EXPECT_EQ(load.tile_shape, ir::Shape{128});
  std::vector<double> values;
  for (const ir::Op* c : ops_of(fn, OpKind::Constant))
    if (fn.type(c->results[0]).dtype == DType::Float32) values.push_back(std::get<double>(c->literal));
  ASSERT_EQ(values.size(), 2u) << ir::print_function(fn);
  EXPECT_DOUBLE_EQ(values[0], std::sqrt(2.0 / M_PI));
  EXPECT_DOUBLE_EQ(values[1], 1.0 / std::log(2.0));
  EXPECT_EQ(ir::type_string(fn.type(stored_value(fn))), "tile<f16, 128>");
}

TEST(SemaGlobals, UnevaluableGlobalFailsOnlyWhenRead) {
  const std::string src =
      "BAD = some_host_function()\n"
      "\n"
      "@ct.kernel\n"
      "def k(x, y, TILE: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    ct.store(y, index=(ct.bid(0),), tile=t * BAD)\n";
  Failure f = compile_failure(src, "x=float32[?], y=float32[?], TILE=64");
  EXPECT_TRUE(f.thrown);
  EXPECT_NE(f.message.find("BAD"), std::string::npos) << f.message;
  EXPECT_EQ(f.range.line, 9);
}

TEST(SemaGlobals, ConstantParameterNeedsTheAnnotation) {
  const std::string src =
      "@ct.kernel\n"
      "def k(x, y, TILE):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    ct.store(y, index=(ct.bid(0),), tile=t)\n";
  EXPECT_COMPILE_ERROR(src, "x=float32[?], y=float32[?], TILE=64", ErrorKind::Signature, "ct.Constant");
}

TEST(SemaGlobals, StaticArrayDimsAreConstants) {
  const std::string src =
      "@ct.kernel\n"
      "def k(x, y):\n"
      "    m, n = x.shape\n"
      "    t = ct.load(x, index=(ct.bid(0), 0), shape=(16, n))\n"
      "    ct.store(y, index=(ct.bid(0), 0), tile=t)\n";
  ir::Function fn = compile(src, "x=float32[?, 32], y=float32[?, 32]");
  EXPECT_EQ(only(fn, OpKind::Load).tile_shape, (ir::Shape{16, 32}));
}

// ---- helpers (a.4) ----------------------------------------------------------------------------

const char* kHelpers =
    "SCALE = 2.0\n"
    "\n"
    "def affine(v, scale=SCALE, bias=1.0):\n"
    "    return v * scale + bias\n"
    "\n"
    "def pair(v):\n"
    "    return v - 1.0, v + 1.0\n"
    "\n";

TEST(SemaHelpers, DefaultsAndKeywordArguments) {
  std::string src = std::string(kHelpers) +
                    "@ct.kernel\n"
                    "def k(x, y, TILE: ct.Constant[int]):\n"
                    "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
                    "    ct.store(y, index=(ct.bid(0),), tile=affine(t, bias=3.0))\n";
  ir::Function fn = compile(src, "x=float32[?], y=float32[?], TILE=64");
  EXPECT_EQ(constants_of(fn, DType::Float32), (std::vector<std::string>{"2.0", "3.0"}));
  EXPECT_EQ(stored_value(fn), only_binary(fn, ir::BinaryKind::Add).results[0]);

  std::string positional = std::string(kHelpers) +
                           "@ct.kernel\n"
                           "def k(x, y, TILE: ct.Constant[int]):\n"
                           "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
                           "    ct.store(y, index=(ct.bid(0),), tile=affine(t, 0.5))\n";
  ir::Function g = compile(positional, "x=float32[?], y=float32[?], TILE=64");
  EXPECT_EQ(constants_of(g, DType::Float32), (std::vector<std::string>{"0.5", "1.0"}));
}

TEST(SemaHelpers, BadCalls) {
  std::string base = std::string(kHelpers) +
                     "@ct.kernel\n"
                     "def k(x, y, TILE: ct.Constant[int]):\n"
                     "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n";
  EXPECT_COMPILE_ERROR(base + "    ct.store(y, index=(ct.bid(0),), tile=affine(t, shift=3.0))\n",
                       "x=float32[?], y=float32[?], TILE=64", ErrorKind::Type, "unexpected keyword argument 'shift'");
  EXPECT_COMPILE_ERROR(base + "    ct.store(y, index=(ct.bid(0),), tile=affine(bias=3.0))\n",
                       "x=float32[?], y=float32[?], TILE=64", ErrorKind::Type, "missing required argument 'v'");
  EXPECT_COMPILE_ERROR(base + "    ct.store(y, index=(ct.bid(0),), tile=affine(t, 1.0, bias=3.0, scale=2.0))\n",
                       "x=float32[?], y=float32[?], TILE=64", ErrorKind::Type, "multiple values for argument 'scale'");
}

TEST(SemaHelpers, ErrorInsideAHelperHasACallerFrame) {
  const std::string src =
      "def bad(v):\n"
      "    return v + undefined_name\n"
      "\n"
      "@ct.kernel\n"
      "def k(x, y, TILE: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    ct.store(y, index=(ct.bid(0),), tile=bad(t))\n";
  try {
    compile(src, "x=float32[?], y=float32[?], TILE=64");
    ADD_FAILURE() << "expected an error";
  } catch (const CompileError& e) {
    ASSERT_EQ(e.frames().size(), 2u);
    EXPECT_EQ(e.frames()[0].range.line, 5);  // inside bad()
    EXPECT_EQ(e.frames()[0].function, "bad");
    EXPECT_EQ(e.frames()[1].range.line, 10);  // the call in the kernel
  }
}

TEST(SemaHelpers, InfiniteRecursionIsARecursionError) {
  const std::string src =
      "def f(v):\n"
      "    return f(v)\n"
      "\n"
      "@ct.kernel\n"
      "def k(x, y, TILE: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    ct.store(y, index=(ct.bid(0),), tile=f(t))\n";
  EXPECT_COMPILE_ERROR(src, "x=float32[?], y=float32[?], TILE=64", ErrorKind::Recursion, "");
}

// ---- tuples -----------------------------------------------------------------------------------

TEST(SemaTuples, UnpackingFromHelpersAndNested) {
  std::string src = std::string(kHelpers) +
                    "@ct.kernel\n"
                    "def k(x, y, TILE: ct.Constant[int]):\n"
                    "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
                    "    lo, hi = pair(t)\n"
                    "    (a, b), c = (hi, lo), 4.0\n"
                    "    ct.store(y, index=(ct.bid(0),), tile=(a - b) * c)\n";
  ir::Function fn = compile(src, "x=float32[?], y=float32[?], TILE=64");
  const ir::Op& sub_outer = *binaries(fn, ir::BinaryKind::Sub).back();
  // a - b == hi - lo: the operands are the add (hi) and the first sub (lo), in that order.
  const ir::Op& add = only_binary(fn, ir::BinaryKind::Add);
  const ir::Op& sub_inner = *binaries(fn, ir::BinaryKind::Sub).front();
  ASSERT_NE(&sub_outer, &sub_inner);
  EXPECT_EQ(sub_outer.operands[0], add.results[0]);
  EXPECT_EQ(sub_outer.operands[1], sub_inner.results[0]);
  EXPECT_EQ(constants_of(fn, DType::Float32), (std::vector<std::string>{"1.0", "1.0", "4.0"}));
}

TEST(SemaTuples, UnpackLengthMismatch) {
  EXPECT_COMPILE_ERROR(
      "@ct.kernel\n"
      "def k(y):\n"
      "    a, b = 1, 2, 3\n",
      "y=int32[?]", ErrorKind::Value, "Too many values to unpack");
  EXPECT_COMPILE_ERROR(
      "@ct.kernel\n"
      "def k(y):\n"
      "    a, b, c = (1, 2)\n",
      "y=int32[?]", ErrorKind::Value, "Too few values to unpack");
}

// ---- loops and ifs (a.5) ----------------------------------------------------------------------

TEST(SemaControlFlow, ForLoopCarriesTheAccumulator) {
  const std::string src =
      "@ct.kernel\n"
      "def k(x, y, n, TILE: ct.Constant[int]):\n"
      "    acc = ct.zeros((TILE,), dtype=ct.float32)\n"
      "    for i in range(n):\n"
      "        t = ct.load(x, index=(i,), shape=(TILE,))\n"
      "        acc = acc + t\n"
      "    ct.store(y, index=(ct.bid(0),), tile=acc)\n";
  ir::Function fn = compile(src, "x=float16[?], y=float32[?], n=int32, TILE=64");
  const ir::Op& loop = only(fn, OpKind::For);
  // Top level: the loop is a direct child of the body.
  bool top_level = false;
  for (const ir::Op& op : fn.body.ops) top_level |= &op == &loop;
  EXPECT_TRUE(top_level);
  ASSERT_EQ(loop.results.size(), 1u);
  EXPECT_EQ(result_type(fn, loop), "tile<f32, 64>");
  EXPECT_EQ(fn.values[loop.results[0]].name, "acc");
  // iv first, then the carried acc.
  ASSERT_EQ(loop.regions[0].args.size(), 2u);
  EXPECT_EQ(ir::type_string(fn.type(loop.regions[0].args[0])), "i32");
  // The body yields the sum, and the store writes the loop's result.
  const ir::Op& yield = loop.regions[0].ops.back();
  ASSERT_EQ(yield.kind, OpKind::Yield);
  EXPECT_EQ(yield.operands.at(0), only_binary(fn, ir::BinaryKind::Add).results[0]);
  EXPECT_EQ(stored_value(fn), loop.results[0]);
  // The f16 load is widened inside the loop.
  EXPECT_EQ(ops_of(fn, OpKind::Convert).size(), 1u);
}

TEST(SemaControlFlow, RangeBoundsAndStep) {
  const std::string src =
      "@ct.kernel\n"
      "def k(y, n):\n"
      "    s = 0\n"
      "    for i in range(2, n, 3):\n"
      "        s = s + i\n"
      "    ct.store(y, index=(0,), tile=s)\n";
  ir::Function fn = compile(src, "y=int32[?], n=int32");
  const ir::Op& loop = only(fn, OpKind::For);
  EXPECT_EQ(result_type(fn, loop), "i32");  // the loose 0 becomes int32
  // Operands: lower, upper, step, then the carried init.
  ASSERT_EQ(loop.operands.size(), 4u);
  auto literal_of = [&](ir::ValueId v) -> std::string {
    for (const ir::Op* c : ops_of(fn, OpKind::Constant))
      if (c->results[0] == v) return ir::literal_string(c->literal);
    return "<not a constant>";
  };
  EXPECT_EQ(literal_of(loop.operands[0]), "2");
  EXPECT_EQ(fn.values[loop.operands[1]].name, "n");
  EXPECT_EQ(literal_of(loop.operands[2]), "3");
  EXPECT_EQ(literal_of(loop.operands[3]), "0");
  EXPECT_COMPILE_ERROR(
      "@ct.kernel\n"
      "def k(y, n):\n"
      "    for i in range(0, n, 0):\n"
      "        pass\n",
      "y=int32[?], n=int32", ErrorKind::Type, "Step must be positive");
  EXPECT_COMPILE_ERROR(
      "@ct.kernel\n"
      "def k(y, n):\n"
      "    for i in range(n):\n"
      "        pass\n",
      "y=int32[?], n=float32", ErrorKind::Type, "range");
}

TEST(SemaControlFlow, LooseIntegerDefaultsToInt64WhenLarge) {
  const std::string src =
      "@ct.kernel\n"
      "def k(y, n):\n"
      "    s = 1 << 40\n"
      "    for i in range(n):\n"
      "        s = s + 1\n"
      "    ct.store(y, index=(0,), tile=s)\n";
  ir::Function fn = compile(src, "y=int64[?], n=int32");
  EXPECT_EQ(result_type(fn, only(fn, OpKind::For)), "i64");
  auto with_init = [&](const std::string& init) {
    std::string text = src;
    text.replace(text.find("1 << 40"), 7, init);
    return text;
  };
  // int32 if it fits, else int64, else uint64; beyond that a TileValueError (spec b.3).
  ir::Function small = compile(with_init("-(1 << 31)"), "y=int64[?], n=int32");
  EXPECT_EQ(result_type(small, only(small, OpKind::For)), "i32");
  ir::Function neg = compile(with_init("-(1 << 63)"), "y=int64[?], n=int32");
  EXPECT_EQ(result_type(neg, only(neg, OpKind::For)), "i64");
  ir::Function big = compile(with_init("1 << 63"), "y=uint64[?], n=int32");
  EXPECT_EQ(result_type(big, only(big, OpKind::For)), "u64");
  EXPECT_COMPILE_ERROR(with_init("1 << 64"), "y=uint64[?], n=int32", ErrorKind::Value, "out of range");
}

TEST(SemaControlFlow, WhileWithBreak) {
  const std::string src =
      "@ct.kernel\n"
      "def k(y, n, limit, TILE: ct.Constant[int]):\n"
      "    i = 0\n"
      "    acc = ct.zeros((TILE,), dtype=ct.float32)\n"
      "    while i < n:\n"
      "        acc = acc + 1.0\n"
      "        if i == limit:\n"
      "            break\n"
      "        i = i + 1\n"
      "    ct.store(y, index=(ct.bid(0),), tile=acc)\n";
  ir::Function fn = compile(src, "y=float32[?], n=int32, limit=int32, TILE=64");
  const ir::Op& loop = only(fn, OpKind::While);
  ASSERT_EQ(loop.regions.size(), 2u);
  EXPECT_EQ(loop.regions[0].ops.back().kind, OpKind::Condition);
  EXPECT_EQ(loop.regions[1].ops.back().kind, OpKind::Yield);
  ASSERT_EQ(loop.results.size(), 2u);
  // The break sits in a runtime if inside the body and hands back the carried values.
  const ir::Op& brk = only(fn, OpKind::Break);
  EXPECT_EQ(brk.operands.size(), 2u);
  const ir::Op& branch = only(fn, OpKind::If);
  EXPECT_EQ(branch.regions[0].ops.back().kind, OpKind::Break);
  // The store writes the loop's acc result.
  ir::ValueId stored = stored_value(fn);
  bool from_loop = false;
  for (ir::ValueId r : loop.results) from_loop |= r == stored;
  EXPECT_TRUE(from_loop) << ir::print_function(fn);
  EXPECT_EQ(fn.values[stored].name, "acc");
}

TEST(SemaControlFlow, RuntimeIfProducesResults) {
  const std::string src =
      "@ct.kernel\n"
      "def k(x, y, TILE: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    if ct.bid(0) % 2 == 0:\n"
      "        v = t * 2.0\n"
      "        s = 1\n"
      "    else:\n"
      "        v = t + 1.0\n"
      "        s = 2\n"
      "    ct.store(y, index=(ct.bid(0),), tile=v + s)\n";
  ir::Function fn = compile(src, "x=float32[?], y=float32[?], TILE=64");
  const ir::Op& branch = only(fn, OpKind::If);
  ASSERT_EQ(branch.results.size(), 2u);
  std::vector<std::string> types;
  for (ir::ValueId r : branch.results) types.push_back(ir::type_string(fn.type(r)) + ":" + fn.values[r].name);
  std::sort(types.begin(), types.end());
  EXPECT_EQ(types, (std::vector<std::string>{"i32:s", "tile<f32, 64>:v"}));
  for (const ir::Block& region : branch.regions) {
    ASSERT_FALSE(region.ops.empty());
    EXPECT_EQ(region.ops.back().kind, OpKind::Yield);
    EXPECT_EQ(region.ops.back().operands.size(), 2u);
  }
  EXPECT_EQ(fn.type(branch.operands[0]), (ir::TileType{DType::Bool, {}}));
}

TEST(SemaControlFlow, RuntimeConditionMustBeScalar) {
  EXPECT_COMPILE_ERROR(
      "@ct.kernel\n"
      "def k(x, y, TILE: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    if t > 0:\n"
      "        t = t + 1.0\n"
      "    ct.store(y, index=(ct.bid(0),), tile=t)\n",
      "x=float32[?], y=float32[?], TILE=64", ErrorKind::Type, "scalar");
}

// ---- errors (a.5, d) --------------------------------------------------------------------------

TEST(SemaErrors, TypeChangeInLoop) {
  const std::string src =
      "@ct.kernel\n"
      "def k(x, y, n, TILE: ct.Constant[int]):\n"
      "    acc = 0\n"
      "    for i in range(n):\n"
      "        acc = acc + ct.load(x, index=(i,), shape=(TILE,))\n"
      "    ct.store(y, index=(ct.bid(0),), tile=acc)\n";
  Failure f = compile_failure(src, "x=float32[?], y=float32[?], n=int32, TILE=64");
  EXPECT_EQ(f.kind, ErrorKind::Type) << f.message;
  EXPECT_NE(f.message.find("acc"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("Type of `acc` depends on path taken"), std::string::npos) << f.message;  // cuTile's words
}

TEST(SemaErrors, PathDependentTypeIsAnErrorOnlyWhenRead) {
  const std::string unread =
      "@ct.kernel\n"
      "def k(x, y, TILE: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    if ct.bid(0) == 0:\n"
      "        v = t\n"
      "    else:\n"
      "        v = t.astype(ct.float16)\n"
      "    ct.store(y, index=(ct.bid(0),), tile=t)\n";
  EXPECT_NO_THROW(compile(unread, "x=float32[?], y=float32[?], TILE=64"));
  const std::string read =
      "@ct.kernel\n"
      "def k(x, y, TILE: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    if ct.bid(0) == 0:\n"
      "        v = t\n"
      "    else:\n"
      "        v = t.astype(ct.float16)\n"
      "    ct.store(y, index=(ct.bid(0),), tile=v)\n";
  Failure f = compile_failure(read, "x=float32[?], y=float32[?], TILE=64");
  EXPECT_EQ(f.kind, ErrorKind::Type) << f.message;
  EXPECT_NE(f.message.find("Type of `v` depends on path taken"), std::string::npos) << f.message;
  EXPECT_EQ(f.range.line, 11);  // where v is read
}

TEST(SemaErrors, AssignedOnOnePathOnly) {
  const std::string src =
      "@ct.kernel\n"
      "def k(x, y, TILE: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    if ct.bid(0) == 0:\n"
      "        w = t\n"
      "    ct.store(y, index=(ct.bid(0),), tile=w)\n";
  Failure f = compile_failure(src, "x=float32[?], y=float32[?], TILE=64");
  EXPECT_TRUE(f.kind == ErrorKind::Type || f.kind == ErrorKind::Syntax) << f.message;
  EXPECT_NE(f.message.find("Undefined variable w"), std::string::npos) << f.message;
}

TEST(SemaErrors, UndefinedAfterLoop) {
  const std::string src =
      "@ct.kernel\n"
      "def k(x, y, n, TILE: ct.Constant[int]):\n"
      "    for i in range(n):\n"
      "        z = ct.load(x, index=(i,), shape=(TILE,))\n"
      "    ct.store(y, index=(ct.bid(0),), tile=z)\n";
  Failure f = compile_failure(src, "x=float32[?], y=float32[?], n=int32, TILE=64");
  EXPECT_TRUE(f.kind == ErrorKind::Type || f.kind == ErrorKind::Syntax) << f.message;
  EXPECT_NE(f.message.find("Undefined variable z"), std::string::npos) << f.message;
  EXPECT_EQ(f.range.line, 8);
}

TEST(SemaErrors, UndefinedName) {
  Failure f = compile_failure(unary_kernel("t + nope"), "x=float32[?], y=float32[?], TILE=64");
  EXPECT_NE(f.message.find("Undefined variable nope"), std::string::npos) << f.message;
  EXPECT_EQ(f.range.line, 7);
  EXPECT_EQ(f.range.col, 46);  // the 'n' of nope
}

// As cuTile: ct.cumsum takes one tile (ct.scan and ct.reduce take a tuple: tuple_combiner_test.cpp).
TEST(SemaErrors, CumsumOverATupleIsATypeError) {
  Failure f = compile_failure(unary_kernel("ct.cumsum((t, t))"), "x=float32[?], y=float32[?], TILE=64");
  EXPECT_EQ(f.kind, ErrorKind::Type) << f.message;
  EXPECT_NE(f.message.find("Invalid argument #1 of cumsum(): Expected a tile, but given value is"), std::string::npos)
      << f.message;
  EXPECT_EQ(f.range.line, 7);
  EXPECT_EQ(f.range.col, 52);  // the tuple argument
}

TEST(SemaErrors, KernelsReturnNothing) {
  EXPECT_COMPILE_ERROR(
      "@ct.kernel\n"
      "def k(y):\n"
      "    return 1\n",
      "y=int32[?]", ErrorKind::Type, "cannot return values");
}

TEST(SemaErrors, TileShapesArePowersOfTwo) {
  EXPECT_COMPILE_ERROR(unary_kernel("t"), "x=float32[?], y=float32[?], TILE=48", ErrorKind::Type,
                       "not a power of two");
}

TEST(SemaErrors, ArraysAreNotSubscriptable) {
  EXPECT_COMPILE_ERROR(unary_kernel("x[0]"), "x=float32[?], y=float32[?], TILE=64", ErrorKind::Type,
                       "not directly subscriptable");
}

TEST(SemaErrors, SignatureMismatch) {
  EXPECT_COMPILE_ERROR(unary_kernel("t"), "x=float32[?], y=float32[?]", ErrorKind::Signature, "TILE");
  EXPECT_COMPILE_ERROR(unary_kernel("t"), "x=float32[?], y=float32[?], TILE=64, z=int32", ErrorKind::Signature,
                       "no parameter 'z'");
  EXPECT_COMPILE_ERROR(unary_kernel("t"), "x=float32[?], y=float32[?], TILE=int32", ErrorKind::Signature,
                       "ct.Constant");
}

TEST(SemaErrors, AssigningAGlobalMakesItLocal) {
  // Python scoping (spec a.5, module globals): a name assigned anywhere in the function is
  // local to all of it, so reading it before the assignment is "Undefined variable", not the
  // global's value.
  const std::string src =
      "SCALE = 2.0\n"
      "\n"
      "@ct.kernel\n"
      "def k(x, y, TILE: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    t = t * SCALE\n"
      "    SCALE = 3.0\n"
      "    ct.store(y, index=(ct.bid(0),), tile=t)\n";
  Failure f = compile_failure(src, "x=float32[?], y=float32[?], TILE=64");
  EXPECT_TRUE(f.kind == ErrorKind::Type || f.kind == ErrorKind::Syntax) << f.message;
  EXPECT_NE(f.message.find("Undefined variable SCALE"), std::string::npos) << f.message;
  EXPECT_EQ(f.range.line, 9);
}

TEST(SemaHelpers, EarlyReturnInsideLoops) {
  // Spec a.4: early return is allowed in helpers inside `if` and inside `while`; only a
  // return from inside a `for` is a TileSyntaxError. A return out of a while loop leaves it by a
  // break that carries the value (loop_returns.cpp; HelperReturn.ReturnInsideAWhileLoop).
  const std::string src =
      "def first_hit(v, n):\n"
      "    i = 0\n"
      "    while i < n:\n"
      "        if i == 3:\n"
      "            return v * 2.0\n"
      "        i = i + 1\n"
      "    return v\n"
      "\n"
      "@ct.kernel\n"
      "def k(x, y, n, TILE: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    ct.store(y, index=(ct.bid(0),), tile=first_hit(t, n))\n";
  EXPECT_NO_THROW(compile(src, "x=float32[?], y=float32[?], n=int32, TILE=64"));
  // ... and a return inside a for loop is cuTile's syntax error (test_early_return_inside_for_loop).
  const std::string in_for =
      "def f(v, n):\n"
      "    for i in range(n):\n"
      "        return v\n"
      "    return v\n"
      "\n"
      "@ct.kernel\n"
      "def k(x, y, n, TILE: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    ct.store(y, index=(ct.bid(0),), tile=f(t, n))\n";
  EXPECT_COMPILE_ERROR(in_for, "x=float32[?], y=float32[?], n=int32, TILE=64", ErrorKind::Syntax, "Returning from a for loop is not supported");
}

TEST(SemaHelpers, RuntimeIfReturningInBothBranches) {
  const std::string src =
      "def pick(v):\n"
      "    if ct.bid(0) > 0:\n"
      "        return v * 2.0\n"
      "    else:\n"
      "        return v + 1.0\n"
      "\n"
      "@ct.kernel\n"
      "def k(x, y, TILE: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    ct.store(y, index=(ct.bid(0),), tile=pick(t))\n";
  ir::Function fn = compile(src, "x=float32[?], y=float32[?], TILE=64");
  const ir::Op& branch = only(fn, OpKind::If);
  ASSERT_EQ(branch.results.size(), 1u);
  EXPECT_EQ(stored_value(fn), branch.results[0]);
}

// ---- the specialization as a whole -----------------------------------------------------------

TEST(SemaSpecialization, ParametersAndSignatureText) {
  const std::string src =
      "@ct.kernel\n"
      "def k(x, n, y, TILE: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    ct.store(y, index=(ct.bid(0),), tile=t * n)\n";
  ir::Function fn = compile(src, "float32[?] align16, float32, y=float32[?], TILE=256");
  EXPECT_EQ(fn.kernel_name, "k");
  EXPECT_EQ(fn.spec_name, "k_f32_f32_f32_256");
  EXPECT_EQ(fn.signature, "x=float32[?] align16, n=float32, y=float32[?], TILE=256");
  ASSERT_EQ(fn.arrays.size(), 2u);
  EXPECT_TRUE(fn.arrays[0].aligned16);
  EXPECT_FALSE(fn.arrays[0].written);
  EXPECT_TRUE(fn.arrays[1].written);
  ASSERT_EQ(fn.scalars.size(), 1u);
  EXPECT_EQ(fn.scalars[0].name, "n");
  EXPECT_EQ(fn.param_order, (std::vector<std::pair<bool, int>>{{true, 0}, {false, 0}, {true, 1}}));
  // The op locations name Python lines (the load is on line 6).
  EXPECT_EQ(only(fn, OpKind::Load).loc.line, 6);
}

TEST(SemaSpecialization, IsDeterministic) {
  EXPECT_EQ(ir::print_function(compile(kDtypeBranch, "x=float32[?], y=float32[?], TILE=64")),
            ir::print_function(compile(kDtypeBranch, "x=float32[?], y=float32[?], TILE=64")));
}

}  // namespace
}  // namespace tile2cu
