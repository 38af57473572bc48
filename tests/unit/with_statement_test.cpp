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

// cuTile's test_contextlib_contextmanager.py::test_dataclass_method_context_manager: a method
// of a frozen dataclass decorated @contextmanager, entered on an instance with arguments.
TEST(WithStatement, DataclassMethodAsContextManager) {
  ir::Function fn = compile_kernel(module("from dataclasses import dataclass\n"
                                          "@dataclass(frozen=True)\n"
                                          "class Scope:\n"
                                          "    name: str\n"
                                          "    @contextmanager\n"
                                          "    def enter(self, start, end):\n"
                                          "        print('enter', self.name, start)\n"
                                          "        yield start\n"
                                          "        print('exit', self.name, end)\n",
                                          "    with Scope('s').enter(20, 30) as v:\n"
                                          "        ct.static_assert(v == 20)\n"
                                          "        print('body')\n"
                                          "    print('after')\n"),
                                   kSig);
  EXPECT_EQ(prints(fn), (std::vector<std::string>{"enter s 20\n", "body\n", "exit s 30\n", "after\n"}));
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
                      "Unsupported syntax: yield");
  EXPECT_KERNEL_ERROR(module("", "    yield bid\n"), kSig, ErrorKind::Syntax, "Unsupported syntax: yield");
}

// The ops of a block (not of nested regions) as a compact trace: prints by their text, jumps
// by their kind, nested ifs and loops as one word.
std::vector<std::string> trace(const ir::Block& block) {
  std::vector<std::string> out;
  for (const ir::Op& op : block.ops) {
    if (op.kind == ir::OpKind::Print) {
      std::string joined;
      for (const auto& t : op.text) joined += t;
      out.push_back(joined.substr(0, joined.size() - 1));  // without the newline
    } else if (op.kind == ir::OpKind::Break) out.push_back("break");
    else if (op.kind == ir::OpKind::Continue) out.push_back("continue");
    else if (op.kind == ir::OpKind::Return) out.push_back("return");
    else if (op.kind == ir::OpKind::If) out.push_back("if");
    else if (op.kind == ir::OpKind::For) out.push_back("for");
  }
  return out;
}

using Trace = std::vector<std::string>;

// cuTile runs a manager's exit on every way out of its body, as Python does: a break, continue
// or return directly in the body or nested in an if exits the managers it leaves, innermost
// first, before it jumps; the path that falls through exits them after the body.
TEST(WithStatement, JumpsOutOfTheBodyRunTheExit) {
  ir::Function fn = compile_kernel(module(kRegion,
                                          "    for j in range(4):\n"
                                          "        with region('x'):\n"
                                          "            print('body')\n"
                                          "            break\n"),
                                   kSig);
  const ir::Op* loop = ops_of_kind(fn, ir::OpKind::For).at(0);
  EXPECT_EQ(trace(loop->regions[0]), (Trace{"enter x", "body", "exit x", "break"}));

  fn = compile_kernel(module(kRegion,
                             "    for j in range(4):\n"
                             "        with region('x'):\n"
                             "            if j > bid:\n"
                             "                continue\n"
                             "            print('tail')\n"),
                      kSig);
  loop = ops_of_kind(fn, ir::OpKind::For).at(0);
  EXPECT_EQ(trace(loop->regions[0]), (Trace{"enter x", "if", "tail", "exit x"}));
  const ir::Op* branch = ops_of_kind(fn, ir::OpKind::If).at(0);
  EXPECT_EQ(trace(branch->regions[0]), (Trace{"exit x", "continue"}));

  // A break leaves the withs opened inside its loop, not the one around the loop.
  fn = compile_kernel(module(kRegion,
                             "    with region('outer'):\n"
                             "        for j in range(2):\n"
                             "            with region('a'), region('b'):\n"
                             "                with region('c'):\n"
                             "                    break\n"),
                      kSig);
  EXPECT_EQ(trace(fn.body), (Trace{"enter outer", "for", "exit outer"}));
  loop = ops_of_kind(fn, ir::OpKind::For).at(0);
  EXPECT_EQ(trace(loop->regions[0]),
            (Trace{"enter a", "enter b", "enter c", "exit c", "exit b", "exit a", "break"}));

  // The kernel's return exits every open manager.
  fn = compile_kernel(module(kRegion,
                             "    with region('a'):\n"
                             "        with region('b'):\n"
                             "            if bid > 2:\n"
                             "                return\n"
                             "    print('after')\n"),
                      kSig);
  EXPECT_EQ(trace(fn.body), (Trace{"enter a", "enter b", "if", "exit b", "exit a", "after"}));
  branch = ops_of_kind(fn, ir::OpKind::If).at(0);
  EXPECT_EQ(trace(branch->regions[0]), (Trace{"exit b", "exit a", "return"}));
}

TEST(WithStatement, HelperReturnsFromTheBody) {
  const std::string helpers = std::string(kRegion) +
                              "def direct(v):\n"
                              "    with region('d'):\n"
                              "        return v + 1\n"
                              "def branches(v):\n"
                              "    with region('b'):\n"
                              "        if v > 0:\n"
                              "            return v * 2\n"
                              "        else:\n"
                              "            return v\n";
  ir::Function fn = compile_kernel(module(helpers, "    print(direct(bid))\n    print(branches(bid))\n"), kSig);
  EXPECT_EQ(trace(fn.body), (Trace{"enter d", "exit d", "%d", "enter b", "if", "%d"}));
  const ir::Op* branch = ops_of_kind(fn, ir::OpKind::If).at(0);
  EXPECT_EQ(trace(branch->regions[0]), (Trace{"exit b"}));
  EXPECT_EQ(trace(branch->regions[1]), (Trace{"exit b"}));
  // The value is computed before the exit runs.
  EXPECT_EQ(branch->results.size(), 1u);
}


// cuTile's test_enter_context_inside_context_manager / test_break_in_with_nested_context: a
// manager's yield may sit inside the manager's own with; entering runs up to it (entering the
// inner manager), the exit finishes the inner with body, exits the inner manager, then the rest.
TEST(WithStatement, ManagerYieldsInsideItsOwnWith) {
  const std::string helpers = std::string(kRegion) +
                              "@contextmanager\n"
                              "def wrap(n):\n"
                              "    print('wrap in')\n"
                              "    with region('inner') as r, region('inner2'):\n"
                              "        print('before yield')\n"
                              "        yield n + 1\n"
                              "        print('after yield')\n"
                              "    print('wrap out')\n";
  ir::Function fn = compile_kernel(module(helpers,
                                          "    with wrap(30) as r:\n"
                                          "        ct.static_assert(r == 31)\n"
                                          "        print('body')\n"
                                          "    print('after')\n"),
                                   kSig);
  EXPECT_EQ(trace(fn.body), (Trace{"wrap in", "enter inner", "enter inner2", "before yield", "body", "after yield",
                                   "exit inner2", "exit inner", "wrap out", "after"}));

  // A break in the body runs the whole exit before it jumps; the path that goes on runs it too.
  fn = compile_kernel(module(helpers,
                             "    for j in range(3):\n"
                             "        with wrap(j):\n"
                             "            if j == bid:\n"
                             "                break\n"
                             "            print('tail')\n"),
                      kSig);
  const ir::Op* loop = ops_of_kind(fn, ir::OpKind::For).at(0);
  const Trace exit{"after yield", "exit inner2", "exit inner", "wrap out"};
  Trace expected{"wrap in", "enter inner", "enter inner2", "before yield", "if", "tail"};
  expected.insert(expected.end(), exit.begin(), exit.end());
  EXPECT_EQ(trace(loop->regions[0]), expected);
  Trace in_branch = exit;
  in_branch.push_back("break");
  EXPECT_EQ(trace(ops_of_kind(fn, ir::OpKind::If).at(0)->regions[0]), in_branch);
}

// cuTile's test_yield_closure*: a function the manager defines and yields reads the manager's
// names as Python's closures do: as they are at the yield while the body runs, live while the
// exit runs, and as the exit left them afterwards (`a += 1` there is seen by a later call).
TEST(WithStatement, YieldedFunctionReadsTheManagersNames) {
  const std::string helpers =
      "@contextmanager\n"
      "def counter(a):\n"
      "    def show():\n"
      "        print('a', a)\n"
      "    a += 1\n"
      "    yield show\n"
      "    show()\n"
      "    a += 1\n";
  ir::Function fn = compile_kernel(module(helpers,
                                          "    with counter(10) as show:\n"
                                          "        show()\n"
                                          "    show()\n"),
                                   kSig);
  EXPECT_EQ(trace(fn.body), (Trace{"a 11", "a 11", "a 12"}));

  // Returned out of a helper's with body (the return runs the exit first), on one path of a
  // run-time if: the rest of the helper, the exit included, goes into the other path.
  const std::string returning = helpers +
                                "def helper(early):\n"
                                "    with counter(10) as show:\n"
                                "        show()\n"
                                "        if early:\n"
                                "            return show\n"
                                "        print('late')\n"
                                "    return show\n";
  fn = compile_kernel(module(returning, "    f = helper(bid > 0)\n    f()\n"), kSig);
  EXPECT_EQ(trace(fn.body), (Trace{"a 11", "if", "a 12"}));
  const ir::Op* branch = ops_of_kind(fn, ir::OpKind::If).at(0);
  EXPECT_EQ(trace(branch->regions[0]), (Trace{"a 11"}));
  EXPECT_EQ(trace(branch->regions[1]), (Trace{"late", "a 11"}));
}

// cuTile's test_generator_context_manager_type_str: a manager in an operator error is spelled
// as cuTile spells its type.
TEST(WithStatement, ManagerInAnOperatorErrorIsSpelledAsCuTiles) {
  EXPECT_KERNEL_ERROR(module(kRegion, "    cm = tile_of(None, 10, TILE=4)\n    cm + 1\n"), kSig, ErrorKind::Type,
                      "Unsupported operand types for +: GeneratorContextManager[<function tile_of at 0x");
  EXPECT_KERNEL_ERROR(module(kRegion, "    cm = tile_of(None, 10, TILE=4)\n    cm + 1\n"), kSig, ErrorKind::Type,
                      ">, args=[None, Tile[int32,()]], kwargs={TILE: Tile[int32,()]}] and Tile[int32,()]");
}

}  // namespace
}  // namespace tile2cu
