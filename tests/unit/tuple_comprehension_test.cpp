// Tuple comprehensions (cuTile's tuple(e for t in ct.static_iter(...))): unrolled at compile
// time, with Python's scoping (test_tuple_comprehension.py).
#include "sema_test_util.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::ops_of_kind;

const char* kSig = "x=int32[?], y=int32[?]";

std::string kernel(const std::string& lines) {
  return "@ct.kernel\n"
         "def k(x, y):\n" +
         lines;
}

// The int32 constants each scatter takes (its index, then its value), in order.
std::vector<std::string> scattered(const ir::Function& fn) {
  std::vector<std::string> out;
  for (const ir::Op* op : ops_of_kind(fn, ir::OpKind::Scatter)) {
    for (ir::ValueId v : op->operands)
      for (const ir::Op* c : ops_of_kind(fn, ir::OpKind::Constant))
        if (c->results[0] == v && fn.values[v].type.dtype == DType::Int32 && fn.values[v].type.shape.empty())
          out.push_back(ir::literal_string(c->literal));
  }
  return out;
}

TEST(TupleComprehension, UnrollsLoadsAndIndexes) {  // test_tuple_comprehension_basic
  ir::Function fn = compile_kernel(
      kernel("    tiles = tuple(ct.load(x, (i,), (16,)) for i in ct.static_iter(range(3)))\n"
             "    rotated = tuple(tiles[(i + 1) % 3] for i in ct.static_iter(range(3)))\n"
             "    for i, t in ct.static_iter(enumerate(rotated)):\n"
             "        ct.store(y, (i,), t)\n"),
      kSig);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Load).size(), 3u);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Store).size(), 3u);
}

TEST(TupleComprehension, FiltersNestsAndKeepsPythonScopes) {
  // if clauses, nesting, and the loop variable not leaking (test_tuple_comprehension_with_multiple_ifs,
  // _nested, _iter_var_not_leaked); lambdas made in it see the last value (_lambda_stored).
  ir::Function fn = compile_kernel(
      kernel("    i = 99\n"
             "    mid = tuple(v for i, v in ct.static_iter(enumerate((5, 6, 7, 8))) if i > 0 if i < 3)\n"
             "    nest = tuple(tuple(i * 2 for i in ct.static_iter(range(j))) for j in ct.static_iter(range(1, 4)))\n"
             "    fns = tuple(lambda: s for s in ct.static_iter(range(4)))\n"
             "    ct.scatter(y, 0, i)\n"
             "    ct.scatter(y, 1, mid[0] + mid[1] * 10 + len(mid) * 100)\n"
             "    ct.scatter(y, 2, nest[2][2] + len(nest[0]) * 10)\n"
             "    ct.scatter(y, 3, fns[0]())\n"),
      kSig);
  EXPECT_EQ(scattered(fn), (std::vector<std::string>{"0", "99", "1", "276", "2", "14", "3", "3"}));
}

TEST(TupleComprehension, CuTilesErrors) {
  // test_tuple_comprehension_second_iter_uses_own_induction_var: n is local to the comprehension.
  EXPECT_KERNEL_ERROR(kernel("    n = 4\n"
                             "    t = tuple(i for i in ct.static_iter(range(3)) for n in ct.static_iter(range(n)))\n"),
                      kSig, ErrorKind::Syntax, "Undefined variable n");
  // test_tuple_comprehension_dynamic_if
  EXPECT_KERNEL_ERROR(kernel("    c = ct.bid(0) > 0\n"
                             "    t = tuple(v for v in ct.static_iter((1, 2)) if c)\n"
                             "    ct.scatter(y, 0, len(t))\n"),
                      kSig, ErrorKind::Type, "Tuple comprehension if-conditions must be statically known");
}

}  // namespace
}  // namespace tile2cu
