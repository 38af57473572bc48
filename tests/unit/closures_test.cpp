// Nested defs and lambdas in tile code (spec a.4, a.5): inlined like helpers, reading the
// enclosing names as Python does: when called (late binding), and once the enclosing call has
// returned, as they were then (frozen captures); defaults are evaluated at the def.
#include "sema_test_util.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::ops_of_kind;

const char* kSig = "x=float32[?], y=float32[?], TILE=16";

std::vector<std::string> literals(const ir::Function& fn) {
  std::vector<std::string> out;
  for (const ir::Op* op : ops_of_kind(fn, ir::OpKind::Constant)) out.push_back(ir::literal_string(op->literal));
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

// cuTile's test_closure.py::test_simple_closure and test_lambda: a name assigned after the def
// (or first assigned after it) is read as it is at the call.
TEST(Closures, NestedDefReadsEnclosingNamesWhenCalled) {
  ir::Function fn = compile_kernel(
      "@ct.kernel\n"
      "def k(x, y, TILE: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    scale = 3.0\n"
      "    def f(v, shift=1.0):\n"
      "        return v * scale + shift + late\n"
      "    late = 7.0\n"
      "    a = f(t)\n"
      "    scale = 5.0\n"
      "    ct.store(y, index=(ct.bid(0),), tile=a + f(t))\n",
      kSig);
  std::vector<std::string> l = literals(fn);
  EXPECT_TRUE(has(l, "3.0") && has(l, "5.0") && has(l, "7.0")) << ir::print_function(fn);
}

// A default is evaluated at the def, not at the call (test_closure_nonconst_default_arg).
TEST(Closures, DefaultsEvaluatedAtTheDef) {
  ir::Function fn = compile_kernel(
      "@ct.kernel\n"
      "def k(x, y, TILE: ct.Constant[int]):\n"
      "    d = 3.0\n"
      "    f = lambda v, s=d: v * s\n"
      "    d = 4.0\n"
      "    ct.store(y, index=(ct.bid(0),), tile=f(ct.load(x, index=(ct.bid(0),), shape=(TILE,))))\n",
      kSig);
  std::vector<std::string> l = literals(fn);
  EXPECT_TRUE(has(l, "3.0") && !has(l, "4.0")) << ir::print_function(fn);
}

// Returned from the call that defined it, a closure keeps that call's names as it returned;
// two closures of one def out of a run-time if merge their captured values and defaults into
// if results (test_frozen_capture_type_compatibility, test_closure_nonconst_default_arg).
TEST(Closures, FrozenCapturesMergeOutOfRuntimeIf) {
  ir::Function fn = compile_kernel(
      "def make(t):\n"
      "    def f(v, s=t):\n"
      "        return v * s + t + u\n"
      "    u = t + 1.0\n"
      "    t = -1.0\n"
      "    return f\n"
      "\n"
      "@ct.kernel\n"
      "def k(x, y, TILE: ct.Constant[int]):\n"
      "    if ct.bid(0) == 0:\n"
      "        c = make(30.0)\n"
      "    else:\n"
      "        c = make(40.0)\n"
      "    ct.store(y, index=(ct.bid(0),), tile=c(ct.load(x, index=(ct.bid(0),), shape=(TILE,))))\n",
      kSig);
  std::vector<const ir::Op*> ifs = ops_of_kind(fn, ir::OpKind::If);
  ASSERT_EQ(ifs.size(), 1u) << ir::print_function(fn);
  EXPECT_GE(ifs[0]->results.size(), 2u) << ir::print_function(fn);  // s and u differ per branch
  std::vector<std::string> l = literals(fn);
  // s = 30/40 (the default), t = -1 (as make returned), u = 31/41
  for (const char* c : {"30.0", "40.0", "-1.0", "31.0", "41.0"}) EXPECT_TRUE(has(l, c)) << c << "\n" << ir::print_function(fn);
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
