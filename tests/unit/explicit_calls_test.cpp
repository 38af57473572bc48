// Every element-wise ct.* function called by name (not through an operator) lowers to the IR
// operation it names, so the coverage table (docs/coverage.md) can point at a test for each.
#include "sema_test_util.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::ops_of_kind;

struct Call {
  const char* expr;  // in terms of float tiles a, b and int tiles i, j (shape (16,))
  ir::OpKind kind;
  int sub;           // the Binary/Compare/Unary kind as int, -1 for none
};

class ExplicitCall : public ::testing::TestWithParam<Call> {};

TEST_P(ExplicitCall, LowersToItsOperation) {
  const Call& c = GetParam();
  std::string body =
      "@ct.kernel\n"
      "def k(x, y, z):\n"
      "    a = ct.load(x, index=(0,), shape=(16,))\n"
      "    b = a + 1.0\n"
      "    i = ct.arange(16, dtype=ct.int32)\n"
      "    j = i + 3\n"
      "    r = " + std::string(c.expr) + "\n"
      "    ct.store(y, index=(0,), tile=r.astype(ct.float32))\n";
  ir::Function fn = compile_kernel(body, "x=float32[?], y=float32[?], z=int32[?]");
  bool found = false;
  for (const ir::Op* op : ops_of_kind(fn, c.kind)) {
    int sub = c.kind == ir::OpKind::Binary ? static_cast<int>(op->binary)
              : c.kind == ir::OpKind::Compare ? static_cast<int>(op->compare)
              : c.kind == ir::OpKind::Unary ? static_cast<int>(op->unary) : -1;
    found |= sub == c.sub;
  }
  EXPECT_TRUE(found) << c.expr << "\n" << ir::print_function(fn);
}

#define B(k) ir::OpKind::Binary, static_cast<int>(ir::BinaryKind::k)
#define C(k) ir::OpKind::Compare, static_cast<int>(ir::CompareKind::k)
#define U(k) ir::OpKind::Unary, static_cast<int>(ir::UnaryKind::k)

INSTANTIATE_TEST_SUITE_P(
    Elementwise, ExplicitCall,
    ::testing::Values(
        Call{"ct.add(a, b)", B(Add)}, Call{"ct.sub(a, b)", B(Sub)}, Call{"ct.mul(a, b)", B(Mul)},
        Call{"ct.truediv(a, b)", B(Div)}, Call{"ct.floordiv(i, j)", B(FloorDiv)}, Call{"ct.mod(i, j)", B(Mod)},
        Call{"ct.pow(a, b)", B(Pow)}, Call{"ct.atan2(a, b)", B(Atan2)},
        Call{"ct.maximum(a, b)", B(Max)}, Call{"ct.minimum(a, b)", B(Min)},
        Call{"ct.bitwise_and(i, j)", B(BitAnd)}, Call{"ct.bitwise_or(i, j)", B(BitOr)},
        Call{"ct.bitwise_xor(i, j)", B(BitXor)}, Call{"ct.bitwise_lshift(i, j)", B(Shl)},
        Call{"ct.bitwise_rshift(i, j)", B(Shr)}, Call{"ct.bitwise_not(i)", U(BitNot)},
        Call{"ct.equal(a, b)", C(Eq)}, Call{"ct.not_equal(a, b)", C(Ne)}, Call{"ct.less(a, b)", C(Lt)},
        Call{"ct.less_equal(a, b)", C(Le)}, Call{"ct.greater(a, b)", C(Gt)},
        Call{"ct.greater_equal(a, b)", C(Ge)},
        Call{"ct.negative(a)", U(Neg)}, Call{"ct.abs(a)", U(Abs)}, Call{"ct.exp(a)", U(Exp)},
        Call{"ct.exp2(a)", U(Exp2)}, Call{"ct.log(a)", U(Log)}, Call{"ct.log2(a)", U(Log2)},
        Call{"ct.sqrt(a)", U(Sqrt)}, Call{"ct.rsqrt(a)", U(Rsqrt)}, Call{"ct.sin(a)", U(Sin)},
        Call{"ct.cos(a)", U(Cos)}, Call{"ct.tan(a)", U(Tan)}, Call{"ct.sinh(a)", U(Sinh)},
        Call{"ct.cosh(a)", U(Cosh)}, Call{"ct.tanh(a)", U(Tanh)}, Call{"ct.floor(a)", U(Floor)},
        Call{"ct.ceil(a)", U(Ceil)}, Call{"ct.isnan(a)", U(IsNan)},
        Call{"ct.astype(i, ct.float16)", ir::OpKind::Convert, -1},
        Call{"ct.where(a > b, a, b)", ir::OpKind::Select, -1},
        Call{"ct.reshape(ct.expand_dims(a, 0), (16,))", ir::OpKind::Reshape, -1},
        Call{"ct.sum(ct.broadcast_to(ct.expand_dims(a, 0), (4, 16)), axis=0)", ir::OpKind::Broadcast, -1}));

// divmod and ct.divmod: Python's floor quotient and remainder, folded on compile-time integers.
TEST(Divmod, FloorQuotientAndRemainder) {
  ir::Function fn = compile_kernel(
      "@ct.kernel\n"
      "def k(x, y, z):\n"
      "    i = ct.load(z, index=(0,), shape=(16,))\n"
      "    q, r = ct.divmod(i, 3)\n"
      "    c, d = divmod(7, -2)\n"
      "    ct.store(z, index=(1,), tile=q + r + (c * 100 + d))\n",
      "x=float32[?], y=float32[?], z=int32[?]");
  bool floordiv = false, mod = false, folded = false;
  for (const ir::Op* op : ops_of_kind(fn, ir::OpKind::Binary)) {
    floordiv |= op->binary == ir::BinaryKind::FloorDiv;
    mod |= op->binary == ir::BinaryKind::Mod;
  }
  for (const ir::Op* op : ops_of_kind(fn, ir::OpKind::Constant))
    folded |= std::get<__int128>(op->literal) == -401;  // divmod(7, -2) == (-4, -1)
  EXPECT_TRUE(floordiv && mod && folded) << ir::print_function(fn);
}

}  // namespace
}  // namespace tile2cu
