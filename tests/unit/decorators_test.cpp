// Decorators on helpers run as in Python (decorators.cpp): a module-level helper decorated by a
// function of the user's is the wrapper that function returns, and functools.wraps is the
// identity, at module level and on nested defs.
#include "sema_test_util.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::ops_of_kind;

const char* kSig = "x=float32[?], y=float32[?], TILE=4";

std::vector<std::string> prints(const ir::Function& fn) {
  std::vector<std::string> out;
  for (const ir::Op* p : ops_of_kind(fn, ir::OpKind::Print)) {
    std::string joined;
    for (const auto& t : p->text) joined += t;
    out.push_back(joined);
  }
  return out;
}

// cuTile's test_helper_function.py::test_decorated_helper_function (80, not 50) and
// ::test_decorated_helper_function_forward (*args, **kwargs passed through).
TEST(Decorators, UserDecoratorWrapsTheHelper) {
  ir::Function fn = compile_kernel(
      "import functools\n"
      "from functools import wraps\n"
      "def add_three(func):\n"
      "    @functools.wraps(func)\n"
      "    def wrapper(x):\n"
      "        return func(x + 3)\n"
      "    return wrapper\n"
      "def forward(func):\n"
      "    @wraps(func)\n"
      "    def wrapper(*args, **kwargs):\n"
      "        return func(*args, **kwargs)\n"
      "    return wrapper\n"
      "def twice(func):\n"
      "    return lambda v: func(func(v))\n"
      "@add_three\n"
      "def times_ten(x):\n"
      "    return x * 10\n"
      "@forward\n"
      "def plus(x, y=1):\n"
      "    return x + y\n"
      "@twice\n"
      "@add_three\n"
      "def stacked(x):\n"
      "    return x * 2\n"
      "@ct.kernel\n"
      "def k(x, y, TILE: ct.Constant[int]):\n"
      "    print(times_ten(5), plus(4, y=2), stacked(1))\n",
      kSig);
  // stacked(1): twice(add_three(stacked)) = ((1 + 3) * 2 + 3) * 2
  EXPECT_EQ(prints(fn), (std::vector<std::string>{"80 6 22\n"}));
}

// A decorator that cannot run in tile code leaves the helper as written, as markers are; other
// decorators on nested defs keep cuTile's refusal.
TEST(Decorators, MarkersAndNestedDecorators) {
  ir::Function fn = compile_kernel(
      "registry = {}\n"
      "def register(func):\n"
      "    registry[func.__name__] = func\n"
      "    return func\n"
      "@register\n"
      "def helper(x):\n"
      "    return x + 1\n"
      "@ct.kernel\n"
      "def k(x, y, TILE: ct.Constant[int]):\n"
      "    print(helper(1))\n",
      kSig);
  EXPECT_EQ(prints(fn), (std::vector<std::string>{"2\n"}));
  EXPECT_KERNEL_ERROR("def deco(f):\n    return f\n"
                      "@ct.kernel\n"
                      "def k(x, y, TILE: ct.Constant[int]):\n"
                      "    @deco\n"
                      "    def g():\n"
                      "        return 1\n"
                      "    print(g())\n",
                      kSig, ErrorKind::Syntax, "decorators on nested functions are not supported");
}

}  // namespace
}  // namespace tile2cu
