// Nested defs and lambdas in tile code (spec a.4, a.5): inlined like helpers, closing over the
// enclosing names as they were at the definition.
#include "sema_test_util.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::ops_of_kind;

const char* kSig = "x=float32[?], y=float32[?], TILE=16";

TEST(Closures, NestedDefCapturesEnclosingValuesAtDefinition) {
  ir::Function fn = compile_kernel(
      "@ct.kernel\n"
      "def k(x, y, TILE: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    scale = 3.0\n"
      "    def f(v, shift=1.0):\n"
      "        return v * scale + shift\n"
      "    scale = 5.0\n"                      // not seen by f: frozen at the def
      "    ct.store(y, index=(ct.bid(0),), tile=f(t))\n",
      kSig);
  std::vector<std::string> literals;
  for (const ir::Op* op : ops_of_kind(fn, ir::OpKind::Constant)) literals.push_back(ir::literal_string(op->literal));
  EXPECT_NE(std::find(literals.begin(), literals.end(), "3.0"), literals.end()) << ir::print_function(fn);
  EXPECT_EQ(std::find(literals.begin(), literals.end(), "5.0"), literals.end()) << ir::print_function(fn);
}

TEST(Closures, LambdasAsValuesAndArguments) {
  ir::Function fn = compile_kernel(
      "def apply(fn, v):\n"
      "    return fn(v)\n"
      "\n"
      "@ct.kernel\n"
      "def k(x, y, TILE: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    offset = 2.0\n"
      "    add = lambda a, b=offset: a + b\n"
      "    ct.store(y, index=(ct.bid(0),), tile=apply(lambda v: ct.exp(v), add(t)))\n",
      kSig);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Unary).size(), 1u);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Binary).size(), 1u);
}

TEST(Closures, Errors) {
  EXPECT_KERNEL_ERROR("@ct.kernel\n"
                      "def k(x, y, TILE: ct.Constant[int]):\n"
                      "    f = lambda v: v + undefined_name\n"
                      "    ct.store(y, index=(0,), tile=f(ct.load(x, index=(0,), shape=(TILE,))))\n",
                      kSig, ErrorKind::Syntax, "Undefined variable undefined_name");
}

}  // namespace
}  // namespace tile2cu
