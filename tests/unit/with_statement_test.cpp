// `with` over @contextlib.contextmanager helpers (spec a.5): the helper runs up to its yield,
// the yielded value binds the target, the body runs, then the rest of the helper; cuTile's
// rejections keep its error classes.
#include "sema_test_util.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::ops_of_kind;

const char* kSig = "x=float32[?], y=float32[?], TILE=4";

std::string module(const std::string& helpers, const std::string& body) {
  return "import contextlib\n"
         "from contextlib import contextmanager\n" + helpers +
         "@ct.kernel\n"
         "def k(x, y, TILE: ct.Constant[int]):\n"
         "    bid = ct.bid(0)\n" + body;
}

const char* kRegion =
    "@contextlib.contextmanager\n"
    "def region(name):\n"
    "    print('enter', name)\n"
    "    yield\n"
    "    print('exit', name)\n"
    "@contextmanager\n"
    "def tile_of(a, i, TILE):\n"
    "    t = ct.load(a, index=(i,), shape=(TILE,))\n"
    "    yield t * 2, i\n"
    "    print('left', i)\n";

// The texts of the kernel's prints, in order.
std::vector<std::string> prints(const ir::Function& fn) {
  std::vector<std::string> out;
  for (const ir::Op* p : ops_of_kind(fn, ir::OpKind::Print)) {
    std::string joined;
    for (const auto& t : p->text) joined += t;
    out.push_back(joined);
  }
  return out;
}

TEST(WithStatement, HelperRunsAroundTheBody) {
  ir::Function fn = compile_kernel(module(kRegion,
                                          "    with region('outer'):\n"
                                          "        print('body')\n"
                                          "    print('after')\n"),
                                   kSig);
  EXPECT_EQ(prints(fn), (std::vector<std::string>{"enter outer\n", "body\n", "exit outer\n", "after\n"}));
}

TEST(WithStatement, ItemsEnterInOrderAndLeaveInReverse) {
  ir::Function fn = compile_kernel(module(kRegion,
                                          "    with region('a'), tile_of(x, bid, TILE) as (t, i), region('b') as none:\n"
                                          "        ct.store(y, index=(i,), tile=t)\n"
                                          "        print(none)\n"),
                                   kSig);
  EXPECT_EQ(prints(fn), (std::vector<std::string>{"enter a\n", "enter b\n", "None\n", "exit b\n",
                                                  "left %d\n", "exit a\n"}));
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Store).size(), 1u);
}

TEST(WithStatement, ManagersAreValuesEnteredOnce) {
  ir::Function fn = compile_kernel(module(kRegion,
                                          "    cm = region('kept')\n"
                                          "    print('made')\n"
                                          "    with cm:\n"
                                          "        pass\n"),
                                   kSig);
  EXPECT_EQ(prints(fn), (std::vector<std::string>{"made\n", "enter kept\n", "exit kept\n"}));
  // A manager (and an f-string) kept across a run-time if is still the same value after it.
  fn = compile_kernel(module(kRegion,
                             "    cm = region('kept')\n"
                             "    msg = f'block {bid}'\n"
                             "    if bid > 0:\n"
                             "        print('positive')\n"
                             "    with cm:\n"
                             "        print(msg)\n"),
                      kSig);
  EXPECT_EQ(prints(fn), (std::vector<std::string>{"positive\n", "enter kept\n", "block %d\n", "exit kept\n"}));
  EXPECT_KERNEL_ERROR(module(kRegion, "    cm = region('x')\n    with cm:\n        pass\n    with cm:\n        pass\n"),
                      kSig, ErrorKind::Type, "Context manager cannot be reused");
}

TEST(WithStatement, NestedInLoopsAndHelpers) {
  ir::Function fn = compile_kernel(module(std::string(kRegion) +
                                              "def twice(v):\n"
                                              "    with region('h'):\n"
                                              "        w = v * 2\n"
                                              "    return w\n",
                                          "    acc = bid\n"
                                          "    for j in range(3):\n"
                                          "        with region('loop'):\n"
                                          "            acc = twice(acc)\n"
                                          "    print(acc)\n"),
                                   kSig);
  EXPECT_EQ(prints(fn), (std::vector<std::string>{"enter loop\n", "enter h\n", "exit h\n", "exit loop\n", "%d\n"}));
}

TEST(WithStatement, RejectionsKeepCuTilesClasses) {
  EXPECT_KERNEL_ERROR(module("def plain():\n    return 1\n", "    with plain():\n        pass\n"), kSig,
                      ErrorKind::Type, "Object of type int constant 1 cannot be used as a context manager");
  EXPECT_KERNEL_ERROR(module("@contextmanager\ndef none():\n    pass\n", "    with none():\n        pass\n"), kSig,
                      ErrorKind::Type, "no reachable `yield` statement has been found");
  EXPECT_KERNEL_ERROR(module("@contextmanager\ndef two():\n    yield\n    yield\n", "    with two():\n        pass\n"),
                      kSig, ErrorKind::Type, "must have one `yield` statement (another `yield` found on line");
  EXPECT_KERNEL_ERROR(module("@contextmanager\ndef cond(c):\n    if c:\n        yield\n", "    with cond(True):\n        pass\n"),
                      kSig, ErrorKind::Type, "must be placed outside of loops and conditional statements");
  EXPECT_KERNEL_ERROR(module("@contextmanager\ndef ret():\n    yield\n    return\n", "    with ret():\n        pass\n"),
                      kSig, ErrorKind::Syntax, "Returning from a generator-based context manager is not supported");
  EXPECT_KERNEL_ERROR(module("def gen():\n    yield 1\n", "    g = gen()\n"), kSig, ErrorKind::Syntax,
                      "unsupported construct in tile code: yield");
  EXPECT_KERNEL_ERROR(module("", "    yield bid\n"), kSig, ErrorKind::Syntax, "unsupported construct in tile code: yield");
  // cuTile accepts these; leaving the body would skip the helper's exit here.
  EXPECT_KERNEL_ERROR(module(kRegion, "    for j in range(2):\n        with region('x'):\n            break\n"), kSig,
                      ErrorKind::UnsupportedFeature, "break out of a with body is not supported yet");
  EXPECT_KERNEL_ERROR(module(kRegion, "    with region('x'):\n        return\n"), kSig,
                      ErrorKind::UnsupportedFeature, "return inside a with body is not supported yet");
  // A loop inside the body may break out of itself.
  ir::Function fn = compile_kernel(module(kRegion, "    with region('x'):\n        for j in range(2):\n            break\n"), kSig);
  EXPECT_EQ(prints(fn).size(), 2u);
}

}  // namespace
}  // namespace tile2cu
