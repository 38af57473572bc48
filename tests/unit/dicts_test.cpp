// Compile-time dicts (lower_dicts.cpp): `{k: v, **d}` displays with constant keys, d[k], `in`,
// len, ==, .get/.keys/.values/.items, a helper's **kwargs and `f(**d)`; and function values (ct
// ops, helpers, bound methods) kept in names, dicts and tuples and called later. cuTile's
// test_dict.py and test_atomic.py (`func = ct.static_eval(_op_to_func[AtomicOp(op_id)])`) use
// both; their error texts are matched there with regexes.
#include <fmt/format.h>

#include "nvcc_compile.hpp"
#include "sema_test_util.hpp"
#include "text_match.hpp"
#include "tile2cu/tile2cu.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::ops_of_kind;

// test_dict.py's kernels, helpers at module level: all folds to constants.
// The helpers that static_assert are called outside static_assert, as cuTile's test_dict.py does:
// a static_assert inside another's condition is cuTile's "static_assert() cannot be used inside
// static_assert()" (50c5f19).
TEST(Dicts, KwargsInHelpersAsCuTilesTestDict) {
  ir::Function fn = compile_kernel(
      "def helper(**kwargs):\n"
      "    ct.static_assert(kwargs == {'foo': 123, 'bar': 456})\n"
      "    return 789\n"
      "\n"
      "def leaf(x, foo, bar):\n"
      "    return x * 100 + foo * 10 + bar\n"
      "\n"
      "def forward(f, **kwargs):\n"
      "    return f(3, **kwargs)\n"
      "\n"
      "def access(**kwargs):\n"
      "    ct.static_assert(kwargs['foo'] == 123 and kwargs.get('bar') == 456)\n"
      "    ct.static_assert(kwargs.get('qux') is None and kwargs.get('qux', 7) == 7)\n"
      "    ct.static_assert('foo' in kwargs and not ('foo' not in kwargs))\n"
      "    ct.static_assert('qux' not in kwargs and len(kwargs) == 2)\n"
      "    return 789\n"
      "\n"
      "def mixed(a, *args, b=5, **kw):\n"
      "    ct.static_assert(args == (2, 3) and b == 4 and kw == {'d': 7, 'c': 6})\n"
      "    return a\n"
      "\n"
      "@ct.kernel\n"
      "def k():\n"
      "    r1 = helper(foo=123, bar=456)\n"
      "    ct.static_assert(r1 == 789)\n"
      "    ct.static_assert(forward(leaf, foo=4, bar=5) == 345)\n"
      "    r3 = access(foo=123, bar=456)\n"
      "    ct.static_assert(r3 == 789)\n"
      "    r4 = mixed(1, 2, 3, b=4, c=6, **{'d': 7})\n"
      "    ct.static_assert(r4 == 1)\n",
      "");
  EXPECT_TRUE(fn.body.ops.empty()) << ir::print_function(fn);
}

// test_dict.py::test_dict_getitem_miss: a TileTypeError with cuTile's text, at the key.
TEST(Dicts, MissingKeyIsCuTilesTypeError) {
  testing::CompileFailure f = testing::compile_kernel_failure(
      "def helper(**kwargs):\n"
      "    return kwargs['qux']\n"
      "\n"
      "@ct.kernel\n"
      "def k():\n"
      "    helper(foo=123, bar=456)\n",
      "");
  EXPECT_EQ(f.kind, ErrorKind::Type);
  EXPECT_EQ(f.message, "Key 'qux' not found in dictionary");
  EXPECT_EQ(f.range.line, 5);  // the key, in helper (three lines of imports come first)
  EXPECT_EQ(f.range.col, 19);
}

// Keys are any compile-time constants, equal as in Python (1 == 1.0, tuples item by item);
// `**` merges, a later key replaces the value; views are tuples static_iter unrolls.
TEST(Dicts, ConstantKeysMergesAndViews) {
  ir::Function fn = compile_kernel(
      "from enum import Enum\n"
      "class Op(Enum):\n"
      "    A = 0\n"
      "    B = 1\n"
      "\n"
      "SCALE = {ct.float32: 2.0, ct.int32: 3.0, (1, 2): 4.0, 's': 5.0, 7: 6.0, Op.B: 8.0}\n"
      "\n"
      "@ct.kernel\n"
      "def k(x, y, TILE: ct.Constant[int], op: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    ct.static_assert(SCALE[1, 2] == 4.0 and SCALE[7.0] == 6.0 and SCALE[Op(op)] == 8.0)\n"
      "    d = {**SCALE, 's': 9.0, 'new': SCALE[x.dtype]}\n"
      "    ct.static_assert(len(d) == 7 and d['s'] == 9.0 and d.keys()[2] == (1, 2))\n"
      "    for key, value in ct.static_iter(d.items()):\n"
      "        t = t + value\n"
      "    small = {'a': 1, 'b': 2}\n"
      "    for key in ct.static_iter(small):\n"
      "        t = t + small[key]\n"
      "    ct.static_assert(d.values()[6] == 2.0 and d.items()[0] == (ct.float32, 2.0))\n"
      "    ct.store(y, index=(ct.bid(0),), tile=t)\n",
      "x=float32[?], y=float32[?], TILE=16, op=1");
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Binary).size(), 9u) << ir::print_function(fn);
}

// A dict holding tiles is a record: out of a run-time if and through a loop its values are
// carried as if results and loop variables; == of dicts with run-time values compares on the GPU.
TEST(Dicts, TileValuesAreCarriedAndCompared) {
  ir::Function fn = compile_kernel(
      "@ct.kernel\n"
      "def k(x, y, TILE: ct.Constant[int], n: int):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
      "    if ct.bid(0) == 0:\n"
      "        d = {'a': t, 'n': 1}\n"
      "    else:\n"
      "        d = {'a': t * 2.0, 'n': 1}\n"
      "    for i in range(3):\n"
      "        d = {**d, 'a': d['a'] + 1.0}\n"
      "    same = {'n': n, 'k': 2} == {'k': 2, 'n': 3}\n"
      "    ct.store(y, index=(ct.bid(0),), tile=ct.where(same, d['a'], -d['a']))\n",
      "x=float32[?], y=float32[?], TILE=16, n=int32");
  ASSERT_EQ(ops_of_kind(fn, ir::OpKind::If).size(), 1u) << ir::print_function(fn);
  ASSERT_EQ(ops_of_kind(fn, ir::OpKind::For).size(), 1u) << ir::print_function(fn);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::If)[0]->results.size(), 1u) << ir::print_function(fn);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Compare).size(), 2u) << ir::print_function(fn);  // bid == 0, n == 3
}

TEST(Dicts, ErrorsAreLocated) {
  const std::tuple<const char*, ErrorKind, const char*> cases[] = {
      {"    d = {n: 1}\n", ErrorKind::Type, "Dictionary keys must be compile-time constants, got int32 scalar"},
      {"    d = {x: 1}\n", ErrorKind::Type, "unhashable type as a dictionary key: Array[float32,1-d]"},
      {"    v = ct.static_eval({1: 2}[3])\n", ErrorKind::StaticEval,
       "ct.static_eval() could not evaluate its argument: Key 3 not found in dictionary"},
      {"    v = {'a': 2}['b']\n", ErrorKind::Type, "Key 'b' not found in dictionary"},
      {"    d = {1: 2}\n    d[1] = 3\n", ErrorKind::UnsupportedFeature, "assigning an item of a dict is not supported"},
      {"    d = {**(1, 2)}\n", ErrorKind::Type, "'tuple' object is not a mapping"},
      {"    f = lambda **kw: 1\n    f(**{1: 2})\n", ErrorKind::Type, "keywords must be strings"},
      {"    f = lambda **kw: 1\n    f(a=1, **{'a': 2})\n", ErrorKind::Type, "got multiple values for keyword argument 'a'"},
      {"    f = lambda a: 1\n    f(1, **{'b': 2})\n", ErrorKind::Type, "<lambda>() got an unexpected keyword argument 'b'"},
      {"    v = {1: 2} < {1: 2}\n", ErrorKind::Type, "Operator '<' is not supported for dictionaries"},
      {"    v = {1: 2}.pop(1)\n", ErrorKind::Type, "'dict' object has no attribute 'pop'"},
      {"    v = {1: 2}[n]\n", ErrorKind::Type, "Dictionary keys must be compile-time constants"},
  };
  for (const auto& [body, kind, message] : cases)
    EXPECT_KERNEL_ERROR(std::string("@ct.kernel\ndef k(x, n: int):\n") + body, "x=float32[?], n=int32", kind, message);
}

// Function values: a ct op, a plain helper, a @ct.function and a bound method of a dataclass
// instance, kept in a module-level dict, a tuple and names, returned from ct.static_eval and
// called later with positional and keyword arguments.
TEST(FunctionValues, StoredInDictsAndTuplesAndCalledLater) {
  ir::Function fn = compile_kernel(
      "from dataclasses import dataclass\n"
      "from enum import Enum\n"
      "\n"
      "class Op(Enum):\n"
      "    ADD = 0\n"
      "    MAX = 1\n"
      "\n"
      "OPS = {Op.ADD: ct.atomic_add, Op.MAX: ct.atomic_max}\n"
      "\n"
      "def twice(t):\n"
      "    return t + t\n"
      "\n"
      "@ct.function\n"
      "def thrice(t):\n"
      "    return t * 3\n"
      "\n"
      "HELPERS = {'twice': twice, 'thrice': thrice}\n"
      "\n"
      "@dataclass(frozen=True)\n"
      "class Scaler:\n"
      "    k: int\n"
      "    def apply(self, t):\n"
      "        return t * self.k\n"
      "\n"
      "def pick(name):\n"
      "    return HELPERS[name]\n"
      "\n"
      "@ct.kernel\n"
      "def k(x, y, z, TILE: ct.Constant[int], op_id: ct.Constant[int]):\n"
      "    offset = ct.arange(TILE, dtype=ct.int64)\n"
      "    val = ct.gather(y, offset)\n"
      "    func = ct.static_eval(OPS[Op(op_id)])\n"
      "    old = func(x, offset, val, memory_order=ct.MemoryOrder.ACQ_REL, memory_scope=ct.MemoryScope.DEVICE)\n"
      "    merged = {**HELPERS, 'scaler': Scaler(5).apply}\n"
      "    pair = (pick('twice'), HELPERS.get('thrice'))\n"
      "    old = merged['scaler'](t=pair[1](pair[0](old)))\n"
      "    cast = old.astype\n"
      "    ct.scatter(z, offset, cast(dtype=ct.int32))\n",
      "x=int32[?], y=int32[?], z=int32[?], TILE=128, op_id=1");
  std::vector<const ir::Op*> atomics = ops_of_kind(fn, ir::OpKind::Atomic);
  ASSERT_EQ(atomics.size(), 1u) << ir::print_function(fn);
  EXPECT_TRUE(contains(ir::print_function(fn), "atomic max x acq_rel device")) << ir::print_function(fn);
  std::string ir_text = ir::print_function(fn);
  for (const char* literal : {"constant 3 : i32", "constant 5 : i32"}) EXPECT_TRUE(contains(ir_text, literal)) << ir_text;
}

// test_atomic.py's arithmetic kernels as cuTile writes them (a module-level dict of ct atomics
// keyed by the test's enum, read in ct.static_eval), every op: the generated code builds for sm_90a.
TEST(FunctionValues, AtomicsFromAModuleDictBuild) {
  TranspileOptions options;
  options.header_name = "k.cuh";
  const char* dtypes[] = {"int32", "int64", "uint32", "uint64", "int32", "int64", "uint32"};
  for (int op = 0; op < 7; ++op)
    options.signatures.push_back(fmt::format("a{0} = atomic_arith_kernel(x={1}[?], y={1}[?], z={1}[?], TILE=128, op_id={0})",
                                             op, dtypes[op]));
  options.signatures.push_back("s = scalar_atomic_arith_kernel(x=float32[?], y=float16[?], z=float32[?], op_id=1)");
  TranspileResult r = transpile("k.py", R"(from enum import Enum

import cuda.tile as ct


class AtomicOp(Enum):
    XCHG = 0
    ADD = 1
    MAX = 2
    MIN = 3
    AND = 4
    OR = 5
    XOR = 6


_op_to_func = {
    AtomicOp.XCHG: ct.atomic_xchg,
    AtomicOp.ADD: ct.atomic_add,
    AtomicOp.MAX: ct.atomic_max,
    AtomicOp.MIN: ct.atomic_min,
    AtomicOp.AND: ct.atomic_and,
    AtomicOp.OR: ct.atomic_or,
    AtomicOp.XOR: ct.atomic_xor,
}


@ct.kernel
def atomic_arith_kernel(x, y, z, TILE: ct.Constant[int], op_id: ct.Constant[int]):
    bid = ct.bid(0)
    offset = ct.arange(TILE, dtype=ct.int64)
    offset += bid*TILE
    val = ct.gather(y, offset)
    func = ct.static_eval(_op_to_func[AtomicOp(op_id)])
    old_val = func(x, offset, val,
                   memory_order=ct.MemoryOrder.ACQ_REL,
                   memory_scope=ct.MemoryScope.DEVICE)
    ct.scatter(z, offset, old_val)


@ct.kernel
def scalar_atomic_arith_kernel(x, y, z, op_id: ct.Constant[int]):
    val = ct.gather(y, 0)
    func = ct.static_eval(_op_to_func[AtomicOp(op_id)])
    old_val = func(x, 0, val)
    ct.scatter(z, 0, old_val)
)",
                                options);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  for (const char* op : {"xchg", "add", "max", "min", "and", "or", "xor"}) EXPECT_TRUE(contains(r.cu, op)) << op;
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_90a"), 0) << r.cu;
}

}  // namespace
}  // namespace tile2cu
