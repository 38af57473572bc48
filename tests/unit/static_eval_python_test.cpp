// Host Python inside ct.static_assert / static_eval / static_iter as cuTile's tests use it
// (test_static_assert.py, test_loose_typing.py, test_typeinfer.py, test_static_iter.py): a plain
// helper's for loop runs at compile time, an f-string of constants and an array's proxy are
// messages, a comparison of strictly typed constants folds, float() of one is a Python float,
// enumerate takes a start.
#include <gtest/gtest.h>

#include <string>

#include "text_match.hpp"
#include "transpile_one.hpp"

namespace tile2cu {
namespace {

TranspileResult with_factorial(const std::string& body, const std::string& signature) {
  TranspileOptions options;
  options.signatures = {signature};
  options.header_name = "k.cuh";
  return transpile("k.py",
                   "import cuda.tile as ct\n\n\ndef factorial(n):\n    ret = 1\n    for i in range(1, n + 1):\n"
                   "        ret *= i\n    return ret\n\n\n@ct.kernel\n" + body,
                   options);
}

TEST(StaticEvalPython, HelperLoopRunsAtCompileTime) {
  const std::string body =
      "def k(x, n: ct.Constant):\n"
      "    ct.static_assert(factorial(n) < 100, f\"{n}! = {factorial(n)}, x is {x}\")\n"
      "    ct.scatter(x, (), n)\n";
  TranspileResult ok = with_factorial(body, "x=int32[], n=4");
  ASSERT_TRUE(ok.ok) << ok.diagnostics;
  TranspileResult bad = with_factorial(body, "x=int32[], n=7");
  ASSERT_FALSE(bad.ok);
  EXPECT_TRUE(contains(bad.diagnostics, "Static assertion failed: 7! = 5040, x is <array[int32, ()]>")) << bad.diagnostics;
}

TEST(StaticEvalPython, TypedConstantsFoldAndConvert) {
  TranspileResult r = transpile_one(
      "def k(n: ct.Constant[int], out, h):\n"
      "    t = n + ct.int16(2)\n"
      "    ct.static_assert(t == 7)\n"
      "    ct.static_assert(ct.int8(100) + ct.int8(100) == -56)\n"  // wraps as the GPU does
      "    b = ct.arange(4, dtype=ct.int8) + t\n"
      "    ct.static_assert(b.dtype == ct.int16)\n"
      "    ct.scatter(out, ct.arange(4, dtype=ct.int32), b)\n"
      "    ct.scatter(h, 1, float(ct.float32(5.0)))\n",
      "n=5, out=int32[?], h=float16[?]");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  TranspileResult bad = transpile_one(
      "def k(n: ct.Constant[int]):\n"
      "    ct.static_assert(n + ct.int16(2) == 8)\n",
      "n=5");
  ASSERT_FALSE(bad.ok);
  EXPECT_TRUE(contains(bad.diagnostics, "Static assertion failed")) << bad.diagnostics;
}

TEST(StaticEvalPython, EnumerateTakesAStart) {
  TranspileResult r = transpile_one(
      "def k(x, y):\n"
      "    a = ct.load(x, (0,), (16,))\n"
      "    b = ct.load(x, (1,), (16,))\n"
      "    s = ct.zeros((16,), dtype=x.dtype)\n"
      "    for i, t in ct.static_iter(enumerate((a, b), 1)):\n"
      "        ct.static_assert(i >= 1)\n"
      "        s += i * t\n"
      "    ct.store(y, (0,), s)\n",
      "x=int32[?], y=int32[?]");
  ASSERT_TRUE(r.ok) << r.diagnostics;
}

}  // namespace
}  // namespace tile2cu
