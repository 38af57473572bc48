// Front end: parsing with tree-sitter and lowering to the kernel AST.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "frontend/ast.hpp"
#include "frontend/ast_printer.hpp"
#include "frontend/parser.hpp"
#include "support/diagnostic.hpp"

namespace tile2cu {
namespace {

ast::Module parse(std::string text) {
  return parse_module(std::make_shared<SourceFile>("test.py", std::move(text)));
}

const ast::Stmt& only_stmt(const ast::Module& module) {
  EXPECT_EQ(module.body.size(), 1u);
  return *module.body.at(0);
}

template <class T>
const T& as(const ast::Stmt& stmt) {
  const T* node = stmt.as<T>();
  if (!node) throw std::runtime_error("statement has another kind");
  return *node;
}

template <class T>
const T& as(const ast::ExprPtr& expr) {
  if (!expr) throw std::runtime_error("null expression");
  const T* node = expr->as<T>();
  if (!node) throw std::runtime_error("expression has another kind: " + print_expr(expr));
  return *node;
}

// The expression of a one-line expression statement.
ast::ExprPtr parse_expr(const std::string& text) {
  ast::Module module = parse(text + "\n");
  return as<ast::ExprStmt>(only_stmt(module)).value;
}

std::string expr_str(const std::string& text) { return print_expr(parse_expr(text)); }

std::string range_str(SourceRange r) {
  return std::to_string(r.line) + ":" + std::to_string(r.col) + "-" + std::to_string(r.end_line) +
         ":" + std::to_string(r.end_col);
}

struct Failure {
  ErrorKind kind;
  std::string message;
  SourceRange range;
};

Failure parse_failure(const std::string& text) {
  try {
    parse(text);
  } catch (const CompileError& e) {
    SourceRange range = e.frames().empty() ? SourceRange{} : e.frames().front().range;
    return {e.kind(), e.message(), range};
  }
  ADD_FAILURE() << "expected a CompileError for:\n" << text;
  return {ErrorKind::Usage, "", {}};
}

// Parses `text` and reports whether it was accepted; anything but a CompileError fails.
bool parses(const std::string& text) {
  try {
    ast::Module module = parse(text);
    (void)print_ast(module);
    return true;
  } catch (const CompileError&) {
    return false;
  }
}

#define EXPECT_SYNTAX_ERROR(text, line_, col_, message_)                  \
  do {                                                                    \
    Failure f = parse_failure(text);                                      \
    EXPECT_EQ(f.kind, ErrorKind::Syntax) << f.message;                    \
    EXPECT_EQ(f.message, message_);                                       \
    EXPECT_EQ(f.range.line, line_) << f.message;                          \
    EXPECT_EQ(f.range.col, col_) << f.message;                            \
  } while (0)

// ---- module-level basics ------------------------------------------------------------------

TEST(Frontend, EmptyAndBlankFiles) {
  EXPECT_TRUE(parse("").body.empty());
  EXPECT_TRUE(parse("\n\n   \n").body.empty());
  EXPECT_TRUE(parse("# only a comment\n# and another").body.empty());
  EXPECT_EQ(parse("x = 1").body.size(), 1u);  // no trailing newline
}

TEST(Frontend, ModuleKeepsTheFile) {
  auto file = std::make_shared<SourceFile>("k.py", "pass\n");
  ast::Module module = parse_module(file);
  EXPECT_EQ(module.file, file);
}

TEST(Frontend, DocstringIsExprStmtOfString) {
  ast::Module module = parse("\"\"\"Module doc.\"\"\"\ndef f():\n    '''Fn doc.'''\n    pass\n");
  ASSERT_EQ(module.body.size(), 2u);
  EXPECT_EQ(as<ast::StrLit>(as<ast::ExprStmt>(*module.body[0]).value).value, "Module doc.");
  const auto& def = as<ast::FunctionDef>(*module.body[1]);
  EXPECT_EQ(as<ast::StrLit>(as<ast::ExprStmt>(*def.body.at(0)).value).value, "Fn doc.");
}

TEST(Frontend, CommentsAreIgnoredEverywhere) {
  ast::Module module = parse(
      "x = f(a,  # first\n"
      "      # between\n"
      "      b)  # after\n"
      "if x:  # header\n"
      "    # inside\n"
      "    pass\n"
      "# before else\n"
      "else:\n"
      "    y = [1,  # in list\n"
      "         2]\n");
  ASSERT_EQ(module.body.size(), 2u);
  EXPECT_EQ(print_expr(as<ast::Assign>(*module.body[0]).value), "(call (name f) (name a) (name b))");
  const auto& branch = as<ast::If>(*module.body[1]);
  EXPECT_EQ(branch.branches.at(0).body.size(), 1u);
  EXPECT_EQ(print_expr(as<ast::Assign>(*branch.orelse.at(0)).value), "(list 1 2)");
}

TEST(Frontend, SemicolonsAndLineContinuations) {
  ast::Module module = parse("a = 1; b = 2;\nc = 1 + \\\n    2\n");
  ASSERT_EQ(module.body.size(), 3u);
  EXPECT_EQ(range_str(module.body[0]->range), "1:1-1:6");
  EXPECT_EQ(range_str(module.body[1]->range), "1:8-1:13");
  EXPECT_EQ(range_str(module.body[2]->range), "2:1-3:6");
  EXPECT_EQ(print_expr(as<ast::Assign>(*module.body[2]).value), "(binop + 1 2)");
}

TEST(Frontend, LineContinuationBeforeAStringLiteral) {
  // tree-sitter keeps no line_continuation node when a string follows the backslash; the
  // string still continues the line (cuTile's test_constfold.py writes `y = \` then `"x"`).
  ast::Module module = parse("x = 1\ny = \\\n    \"x\"\nz = \\\r\n  f\"{x}\" \\\n  'b'\n");
  ASSERT_EQ(module.body.size(), 3u);
  EXPECT_EQ(range_str(module.body[1]->range), "2:1-3:8");
  EXPECT_EQ(print_expr(as<ast::Assign>(*module.body[1]).value), "\"x\"");
  // A continuation inside a comment still continues nothing.
  EXPECT_SYNTAX_ERROR("y = 1  # \\\n    \"x\"\n", 2, 5, "unexpected indent");
}

TEST(Frontend, CrlfLineEndingsAndTabs) {
  ast::Module module = parse("def f(x):\r\n\tif x:\r\n\t\treturn 1\r\n\treturn 2\r\n");
  const auto& def = as<ast::FunctionDef>(only_stmt(module));
  ASSERT_EQ(def.body.size(), 2u);
  EXPECT_EQ(range_str(def.body[1]->range), "4:2-4:10");
  EXPECT_EQ(as<ast::If>(*def.body[0]).branches.at(0).body.at(0)->range.col, 3);
}

TEST(Frontend, ByteOrderMarkIsAccepted) {
  ast::Module module = parse("\xEF\xBB\xBFx = 1\ny = 2\n");
  ASSERT_EQ(module.body.size(), 2u);
  EXPECT_EQ(module.body[0]->range.line, 1);
  EXPECT_EQ(module.body[0]->range.col, 2);  // the mark is one code point of the line
  EXPECT_EQ(range_str(module.body[1]->range), "2:1-2:6");
}

// ---- statements ---------------------------------------------------------------------------

TEST(Frontend, Imports) {
  ast::Module module = parse(
      "import cuda.tile as ct\n"
      "import math, numpy . linalg as la\n"
      "from . import x as y, z\n"
      "from ..pkg.mod import (a, b as c,)\n"
      "from os import *\n"
      "from __future__ import annotations\n"
      "from ... import deep\n");
  ASSERT_EQ(module.body.size(), 7u);
  const auto& i0 = as<ast::Import>(*module.body[0]);
  ASSERT_EQ(i0.names.size(), 1u);
  EXPECT_EQ(i0.names[0].name, "cuda.tile");
  EXPECT_EQ(i0.names[0].asname, "ct");
  EXPECT_EQ(range_str(i0.names[0].range), "1:8-1:23");
  const auto& i1 = as<ast::Import>(*module.body[1]);
  ASSERT_EQ(i1.names.size(), 2u);
  EXPECT_EQ(i1.names[0].name, "math");
  EXPECT_EQ(i1.names[0].asname, "");
  EXPECT_EQ(i1.names[1].name, "numpy.linalg");
  EXPECT_EQ(i1.names[1].asname, "la");

  const auto& f0 = as<ast::ImportFrom>(*module.body[2]);
  EXPECT_EQ(f0.module, "");
  EXPECT_EQ(f0.level, 1);
  ASSERT_EQ(f0.names.size(), 2u);
  EXPECT_EQ(f0.names[0].name, "x");
  EXPECT_EQ(f0.names[0].asname, "y");
  EXPECT_EQ(f0.names[1].name, "z");
  const auto& f1 = as<ast::ImportFrom>(*module.body[3]);
  EXPECT_EQ(f1.module, "pkg.mod");
  EXPECT_EQ(f1.level, 2);
  ASSERT_EQ(f1.names.size(), 2u);
  EXPECT_EQ(f1.names[1].name, "b");
  EXPECT_EQ(f1.names[1].asname, "c");
  const auto& f2 = as<ast::ImportFrom>(*module.body[4]);
  EXPECT_EQ(f2.module, "os");
  ASSERT_EQ(f2.names.size(), 1u);
  EXPECT_EQ(f2.names[0].name, "*");
  const auto& f3 = as<ast::ImportFrom>(*module.body[5]);
  EXPECT_EQ(f3.module, "__future__");
  EXPECT_EQ(f3.names.at(0).name, "annotations");
  const auto& f4 = as<ast::ImportFrom>(*module.body[6]);
  EXPECT_EQ(f4.level, 3);
  EXPECT_EQ(f4.module, "");
}

TEST(Frontend, AssignmentForms) {
  ast::Module module = parse(
      "a = b = c\n"
      "x, y = 1, 2\n"
      "[p, q] = t\n"
      "(m, n), *rest = v\n"
      "(solo) = 3\n"
      "s.attr = 4\n"
      "t[0, 1] = 5\n"
      "k, = seq\n"
      "u = *xs, w\n");
  ASSERT_EQ(module.body.size(), 9u);
  const auto& chain = as<ast::Assign>(*module.body[0]);
  ASSERT_EQ(chain.targets.size(), 2u);
  EXPECT_EQ(print_expr(chain.targets[0]), "(name a)");
  EXPECT_EQ(print_expr(chain.targets[1]), "(name b)");
  EXPECT_EQ(print_expr(chain.value), "(name c)");
  EXPECT_EQ(range_str(module.body[0]->range), "1:1-1:10");

  auto assign_str = [&](size_t i) {
    const auto& a = as<ast::Assign>(*module.body[i]);
    std::string out;
    for (const auto& t : a.targets) out += print_expr(t) + " = ";
    return out + print_expr(a.value);
  };
  EXPECT_EQ(assign_str(1), "(tuple (name x) (name y)) = (tuple 1 2)");
  EXPECT_EQ(assign_str(2), "(list (name p) (name q)) = (name t)");
  EXPECT_EQ(assign_str(3), "(tuple (tuple (name m) (name n)) (starred (name rest))) = (name v)");
  EXPECT_EQ(assign_str(4), "(name solo) = 3");
  EXPECT_EQ(assign_str(5), "(attr (name s) attr) = 4");
  EXPECT_EQ(assign_str(6), "(subscript (name t) (tuple 0 1)) = 5");
  EXPECT_EQ(assign_str(7), "(tuple (name k)) = (name seq)");
  EXPECT_EQ(assign_str(8), "(name u) = (tuple (starred (name xs)) (name w))");
}

TEST(Frontend, AnnotatedAssignment) {
  ast::Module module = parse("x: int = 3\ny: ct.Constant[int]\nself.z: float = 1.0\n");
  ASSERT_EQ(module.body.size(), 3u);
  const auto& a0 = as<ast::AnnAssign>(*module.body[0]);
  EXPECT_EQ(print_expr(a0.target), "(name x)");
  EXPECT_EQ(print_expr(a0.annotation), "(name int)");
  EXPECT_EQ(print_expr(a0.value), "3");
  const auto& a1 = as<ast::AnnAssign>(*module.body[1]);
  EXPECT_EQ(print_expr(a1.annotation), "(subscript (attr (name ct) Constant) (name int))");
  EXPECT_EQ(a1.value, nullptr);
  EXPECT_EQ(print_expr(as<ast::AnnAssign>(*module.body[2]).target), "(attr (name self) z)");
}

TEST(Frontend, AugmentedAssignmentAllOperators) {
  const std::pair<const char*, ast::BinaryOp> cases[] = {
      {"+=", ast::BinaryOp::Add},     {"-=", ast::BinaryOp::Sub},
      {"*=", ast::BinaryOp::Mul},     {"/=", ast::BinaryOp::Div},
      {"//=", ast::BinaryOp::FloorDiv}, {"%=", ast::BinaryOp::Mod},
      {"**=", ast::BinaryOp::Pow},    {"@=", ast::BinaryOp::MatMul},
      {"&=", ast::BinaryOp::BitAnd},  {"|=", ast::BinaryOp::BitOr},
      {"^=", ast::BinaryOp::BitXor},  {"<<=", ast::BinaryOp::LShift},
      {">>=", ast::BinaryOp::RShift}};
  for (auto [token, op] : cases) {
    ast::Module module = parse(std::string("acc ") + token + " v[i]\n");
    const auto& aug = as<ast::AugAssign>(only_stmt(module));
    EXPECT_EQ(aug.op, op) << token;
    EXPECT_EQ(print_expr(aug.target), "(name acc)");
    EXPECT_EQ(print_expr(aug.value), "(subscript (name v) (name i))");
  }
}

TEST(Frontend, IfElifElseKeepsTheChainFlat) {
  ast::Module module = parse(
      "if a:\n"
      "    x = 1\n"
      "elif b:\n"
      "    x = 2\n"
      "elif c:\n"
      "    pass\n"
      "else:\n"
      "    x = 3\n");
  const ast::Stmt& top = only_stmt(module);
  EXPECT_EQ(range_str(top.range), "1:1-8:10");
  const auto& chain = as<ast::If>(top);
  ASSERT_EQ(chain.branches.size(), 3u);
  EXPECT_EQ(print_expr(chain.branches[0].cond), "(name a)");
  EXPECT_EQ(range_str(chain.branches[0].range), "1:1-8:10");
  EXPECT_EQ(print_expr(chain.branches[1].cond), "(name b)");
  EXPECT_EQ(range_str(chain.branches[1].range), "3:1-8:10");
  EXPECT_EQ(print_expr(chain.branches[2].cond), "(name c)");
  EXPECT_EQ(chain.branches[2].range.line, 5);
  ASSERT_EQ(chain.orelse.size(), 1u);
  EXPECT_EQ(print_expr(as<ast::Assign>(*chain.orelse[0]).value), "3");

  ast::Module one_line = parse("if a: pass\n");
  const auto& plain = as<ast::If>(only_stmt(one_line));
  EXPECT_EQ(plain.branches.size(), 1u);
  EXPECT_TRUE(plain.orelse.empty());
}

TEST(Frontend, LoopsKeepElseClauses) {
  ast::Module module = parse(
      "for i, (j, k) in enumerate(xs):\n"
      "    if i: break\n"
      "    continue\n"
      "else:\n"
      "    done = True\n"
      "while n > 0:\n"
      "    n -= 1\n"
      "else:\n"
      "    pass\n"
      "for x in y: pass\n");
  ASSERT_EQ(module.body.size(), 3u);
  const auto& loop = as<ast::For>(*module.body[0]);
  EXPECT_EQ(print_expr(loop.target), "(tuple (name i) (tuple (name j) (name k)))");
  EXPECT_EQ(print_expr(loop.iter), "(call (name enumerate) (name xs))");
  ASSERT_EQ(loop.body.size(), 2u);
  EXPECT_NE(as<ast::If>(*loop.body[0]).branches.at(0).body.at(0)->as<ast::Break>(), nullptr);
  EXPECT_NE(loop.body[1]->as<ast::Continue>(), nullptr);
  ASSERT_EQ(loop.orelse.size(), 1u);
  const auto& wl = as<ast::While>(*module.body[1]);
  EXPECT_EQ(print_expr(wl.cond), "(compare (name n) > 0)");
  ASSERT_EQ(wl.orelse.size(), 1u);
  EXPECT_NE(wl.orelse[0]->as<ast::Pass>(), nullptr);
  EXPECT_TRUE(as<ast::For>(*module.body[2]).orelse.empty());
}

TEST(Frontend, ReturnForms) {
  ast::Module module = parse("def f():\n    return\n    return x\n    return a, b\n");
  const auto& def = as<ast::FunctionDef>(only_stmt(module));
  ASSERT_EQ(def.body.size(), 3u);
  EXPECT_EQ(as<ast::Return>(*def.body[0]).value, nullptr);
  EXPECT_EQ(print_expr(as<ast::Return>(*def.body[1]).value), "(name x)");
  EXPECT_EQ(print_expr(as<ast::Return>(*def.body[2]).value), "(tuple (name a) (name b))");
  EXPECT_EQ(range_str(def.body[2]->range), "4:5-4:16");
}

TEST(Frontend, FunctionDefinitionWithDecoratorsAndParams) {
  ast::Module module = parse(
      "import cuda.tile as ct\n"
      "@ct.kernel(occupancy=2)\n"
      "@other\n"
      "def vector_add(a, b: int, c=1, TILE: ct.Constant[int] = 16, /, *args: float, d, e=2,\n"
      "               **kwargs):\n"
      "    pass\n");
  ASSERT_EQ(module.body.size(), 2u);
  const ast::Stmt& stmt = *module.body[1];
  EXPECT_EQ(range_str(stmt.range), "4:1-6:9");  // the def line, not the decorator's
  const auto& def = as<ast::FunctionDef>(stmt);
  EXPECT_EQ(def.name, "vector_add");
  EXPECT_EQ(range_str(def.name_range), "4:5-4:15");
  ASSERT_EQ(def.decorators.size(), 2u);
  EXPECT_EQ(print_expr(def.decorators[0]), "(call (attr (name ct) kernel) (kw occupancy 2))");
  EXPECT_EQ(print_expr(def.decorators[1]), "(name other)");

  ASSERT_EQ(def.params.size(), 8u);
  const auto& p = def.params;
  EXPECT_EQ(p[0].name, "a");
  EXPECT_EQ(p[0].annotation, nullptr);
  EXPECT_EQ(p[0].default_value, nullptr);
  EXPECT_EQ(p[0].kind, ast::Param::Kind::Normal);
  EXPECT_EQ(range_str(p[0].range), "4:16-4:17");
  EXPECT_EQ(print_expr(p[1].annotation), "(name int)");
  EXPECT_EQ(range_str(p[1].range), "4:19-4:25");
  EXPECT_EQ(print_expr(p[2].default_value), "1");
  EXPECT_EQ(p[3].name, "TILE");
  EXPECT_EQ(print_expr(p[3].annotation), "(subscript (attr (name ct) Constant) (name int))");
  EXPECT_EQ(print_expr(p[3].default_value), "16");
  EXPECT_EQ(p[4].name, "args");
  EXPECT_EQ(p[4].kind, ast::Param::Kind::VarArgs);
  EXPECT_EQ(print_expr(p[4].annotation), "(name float)");
  EXPECT_EQ(p[5].name, "d");
  EXPECT_EQ(p[6].name, "e");
  EXPECT_EQ(p[7].name, "kwargs");
  EXPECT_EQ(p[7].kind, ast::Param::Kind::KwArgs);
}

TEST(Frontend, NestedFunctionsAndAnnotationsOfAllShapes) {
  ast::Module module = parse(
      "def outer(x: int | None, y: list[int], z: tuple[int, ...], w: 'str') -> None:\n"
      "    def inner(*, k):\n"
      "        return k\n"
      "    return inner\n");
  const auto& def = as<ast::FunctionDef>(only_stmt(module));
  ASSERT_EQ(def.params.size(), 4u);
  EXPECT_EQ(print_expr(def.params[0].annotation), "(binop | (name int) None)");
  EXPECT_EQ(print_expr(def.params[1].annotation), "(subscript (name list) (name int))");
  EXPECT_EQ(print_expr(def.params[2].annotation), "(subscript (name tuple) (tuple (name int) ...))");
  EXPECT_EQ(print_expr(def.params[3].annotation), "\"str\"");
  const auto& inner = as<ast::FunctionDef>(*def.body.at(0));
  ASSERT_EQ(inner.params.size(), 1u);  // the bare `*` marker is dropped
  EXPECT_EQ(inner.params[0].name, "k");
}

// ---- expressions --------------------------------------------------------------------------

TEST(Frontend, NamesAttributesAndCalls) {
  EXPECT_EQ(expr_str("x"), "(name x)");
  EXPECT_EQ(expr_str("a.b.c"), "(attr (attr (name a) b) c)");
  EXPECT_EQ(expr_str("f()"), "(call (name f))");
  EXPECT_EQ(expr_str("f(a, b=1, *c, **d)"),
            "(call (name f) (name a) (starred (name c)) (kw b 1) (kw ** (name d)))");
  EXPECT_EQ(expr_str("f(a,)"), "(call (name f) (name a))");
  EXPECT_EQ(expr_str("ct.load(x, index=(i,), shape=(T,))"),
            "(call (attr (name ct) load) (name x) (kw index (tuple (name i))) "
            "(kw shape (tuple (name T))))");
}

TEST(Frontend, KeywordRanges) {
  ast::ExprPtr e = parse_expr("f(a, key=v, **extra)");
  const auto& call = as<ast::Call>(e);
  ASSERT_EQ(call.keywords.size(), 2u);
  EXPECT_EQ(call.keywords[0].name, "key");
  EXPECT_EQ(range_str(call.keywords[0].range), "1:6-1:11");
  EXPECT_EQ(call.keywords[1].name, "");
  EXPECT_EQ(range_str(call.keywords[1].range), "1:13-1:20");
  EXPECT_EQ(range_str(call.keywords[1].value->range), "1:15-1:20");
  EXPECT_EQ(range_str(e->range), "1:1-1:21");
  EXPECT_EQ(range_str(call.func->range), "1:1-1:2");
}

TEST(Frontend, SubscriptsAndSlices) {
  EXPECT_EQ(expr_str("t[i]"), "(subscript (name t) (name i))");
  EXPECT_EQ(expr_str("t[i, j]"), "(subscript (name t) (tuple (name i) (name j)))");
  EXPECT_EQ(expr_str("t[i,]"), "(subscript (name t) (tuple (name i)))");
  EXPECT_EQ(expr_str("t[(i, j)]"), "(subscript (name t) (tuple (name i) (name j)))");
  EXPECT_EQ(expr_str("t[:, None]"), "(subscript (name t) (tuple (slice _ _ _) None))");
  EXPECT_EQ(expr_str("t[None, :]"), "(subscript (name t) (tuple None (slice _ _ _)))");
  EXPECT_EQ(expr_str("t[:]"), "(subscript (name t) (slice _ _ _))");
  EXPECT_EQ(expr_str("t[1:]"), "(subscript (name t) (slice 1 _ _))");
  EXPECT_EQ(expr_str("t[:n]"), "(subscript (name t) (slice _ (name n) _))");
  EXPECT_EQ(expr_str("t[::2]"), "(subscript (name t) (slice _ _ 2))");
  EXPECT_EQ(expr_str("t[a:b:c]"), "(subscript (name t) (slice (name a) (name b) (name c)))");
  EXPECT_EQ(expr_str("t[1:2, ..., ::-1]"),
            "(subscript (name t) (tuple (slice 1 2 _) ... (slice _ _ (unary - 1))))");

  ast::ExprPtr e = parse_expr("t[:, None]");
  const auto& sub = as<ast::Subscript>(e);
  EXPECT_EQ(range_str(sub.index->range), "1:3-1:10");
  const auto& tuple = as<ast::TupleExpr>(sub.index);
  EXPECT_EQ(range_str(tuple.elts[0]->range), "1:3-1:4");
  EXPECT_EQ(range_str(tuple.elts[1]->range), "1:6-1:10");
}

TEST(Frontend, BinaryOperatorsAndPrecedence) {
  const std::pair<const char*, ast::BinaryOp> cases[] = {
      {"+", ast::BinaryOp::Add},     {"-", ast::BinaryOp::Sub},
      {"*", ast::BinaryOp::Mul},     {"/", ast::BinaryOp::Div},
      {"//", ast::BinaryOp::FloorDiv}, {"%", ast::BinaryOp::Mod},
      {"**", ast::BinaryOp::Pow},    {"@", ast::BinaryOp::MatMul},
      {"&", ast::BinaryOp::BitAnd},  {"|", ast::BinaryOp::BitOr},
      {"^", ast::BinaryOp::BitXor},  {"<<", ast::BinaryOp::LShift},
      {">>", ast::BinaryOp::RShift}};
  for (auto [token, op] : cases) {
    ast::ExprPtr e = parse_expr(std::string("a ") + token + " b");
    EXPECT_EQ(as<ast::Binary>(e).op, op) << token;
    EXPECT_STREQ(ast::binary_op_token(op), token);
  }
  EXPECT_EQ(expr_str("a + b * c"), "(binop + (name a) (binop * (name b) (name c)))");
  EXPECT_EQ(expr_str("(a + b) * c"), "(binop * (binop + (name a) (name b)) (name c))");
  EXPECT_EQ(expr_str("a - b - c"), "(binop - (binop - (name a) (name b)) (name c))");
  EXPECT_EQ(expr_str("a ** b ** c"), "(binop ** (name a) (binop ** (name b) (name c)))");
  EXPECT_EQ(expr_str("-a ** 2"), "(unary - (binop ** (name a) 2))");
  EXPECT_EQ(expr_str("a & b | c ^ d"),
            "(binop | (binop & (name a) (name b)) (binop ^ (name c) (name d)))");
}

TEST(Frontend, UnaryOperators) {
  EXPECT_EQ(expr_str("-x"), "(unary - (name x))");
  EXPECT_EQ(expr_str("+x"), "(unary + (name x))");
  EXPECT_EQ(expr_str("~x"), "(unary ~ (name x))");
  EXPECT_EQ(expr_str("not x"), "(unary not (name x))");
  EXPECT_EQ(as<ast::Unary>(parse_expr("not x")).op, ast::UnaryOp::Not);
  EXPECT_EQ(expr_str("--x"), "(unary - (unary - (name x)))");
}

TEST(Frontend, BooleanChainsFlattenLikePython) {
  EXPECT_EQ(expr_str("a and b and c"), "(and (name a) (name b) (name c))");
  EXPECT_EQ(expr_str("a or b or c or d"), "(or (name a) (name b) (name c) (name d))");
  EXPECT_EQ(expr_str("a and b or c"), "(or (and (name a) (name b)) (name c))");
  EXPECT_EQ(expr_str("a or b and c"), "(or (name a) (and (name b) (name c)))");
  EXPECT_EQ(expr_str("(a and b) and c"), "(and (and (name a) (name b)) (name c))");
  EXPECT_EQ(expr_str("a and (b and c)"), "(and (name a) (and (name b) (name c)))");
  EXPECT_EQ(expr_str("not a and b"), "(and (unary not (name a)) (name b))");
  EXPECT_EQ(range_str(parse_expr("a and b and c")->range), "1:1-1:14");
}

TEST(Frontend, ComparisonsChain) {
  EXPECT_EQ(expr_str("a < b"), "(compare (name a) < (name b))");
  EXPECT_EQ(expr_str("a < b <= c == d"), "(compare (name a) < (name b) <= (name c) == (name d))");
  const std::pair<const char*, ast::CompareOp> cases[] = {
      {"<", ast::CompareOp::Lt},      {"<=", ast::CompareOp::Le},
      {">", ast::CompareOp::Gt},      {">=", ast::CompareOp::Ge},
      {"==", ast::CompareOp::Eq},     {"!=", ast::CompareOp::NotEq},
      {"is", ast::CompareOp::Is},     {"is not", ast::CompareOp::IsNot},
      {"in", ast::CompareOp::In},     {"not in", ast::CompareOp::NotIn}};
  for (auto [token, op] : cases) {
    ast::ExprPtr e = parse_expr(std::string("a ") + token + " b");
    const auto& cmp = as<ast::Compare>(e);
    ASSERT_EQ(cmp.ops.size(), 1u) << token;
    EXPECT_EQ(cmp.ops[0], op) << token;
    EXPECT_STREQ(ast::compare_op_token(op), token);
  }
  EXPECT_EQ(expr_str("x is  not None"), "(compare (name x) is not None)");
  EXPECT_EQ(expr_str("x not  in xs"), "(compare (name x) not in (name xs))");
}

TEST(Frontend, ConditionalExpressions) {
  ast::ExprPtr e = parse_expr("a if cond else b");
  const auto& ifexp = as<ast::IfExp>(e);
  EXPECT_EQ(print_expr(ifexp.cond), "(name cond)");
  EXPECT_EQ(print_expr(ifexp.then_value), "(name a)");
  EXPECT_EQ(print_expr(ifexp.else_value), "(name b)");
  EXPECT_EQ(expr_str("a if x else b if y else c"),
            "(ifexp (name a) if (name x) else (ifexp (name b) if (name y) else (name c)))");
}

TEST(Frontend, TuplesListsAndParentheses) {
  EXPECT_EQ(expr_str("()"), "(tuple)");
  EXPECT_EQ(expr_str("(a,)"), "(tuple (name a))");
  EXPECT_EQ(expr_str("a, b"), "(tuple (name a) (name b))");
  EXPECT_EQ(expr_str("(a, *b)"), "(tuple (name a) (starred (name b)))");
  EXPECT_EQ(expr_str("[]"), "(list)");
  EXPECT_EQ(expr_str("[1, [2, 3]]"), "(list 1 (list 2 3))");
  EXPECT_EQ(expr_str("(((x)))"), "(name x)");

  // Parentheses are transparent: the inner expression keeps its own range.
  ast::ExprPtr e = parse_expr("((a + b))");
  EXPECT_EQ(range_str(e->range), "1:3-1:8");
  ast::ExprPtr t = parse_expr("(1, 2)");
  EXPECT_EQ(range_str(t->range), "1:1-1:7");
}

TEST(Frontend, Constants) {
  EXPECT_TRUE(as<ast::BoolLit>(parse_expr("True")).value);
  EXPECT_FALSE(as<ast::BoolLit>(parse_expr("False")).value);
  EXPECT_NE(parse_expr("None")->as<ast::NoneLit>(), nullptr);
  EXPECT_NE(parse_expr("...")->as<ast::EllipsisLit>(), nullptr);
}

// ---- literals -----------------------------------------------------------------------------

__int128 int_value(const std::string& text) { return as<ast::IntLit>(parse_expr(text)).value; }

TEST(Frontend, IntegerLiteralForms) {
  EXPECT_EQ(int_value("0"), 0);
  EXPECT_EQ(int_value("00"), 0);
  EXPECT_EQ(int_value("0_0"), 0);
  EXPECT_EQ(int_value("42"), 42);
  EXPECT_EQ(int_value("1_000_000"), 1000000);
  EXPECT_EQ(int_value("0x1F"), 31);
  EXPECT_EQ(int_value("0XfF"), 255);
  EXPECT_EQ(int_value("0x_dead_BEEF"), 0xdeadbeef);
  EXPECT_EQ(int_value("0o17"), 15);
  EXPECT_EQ(int_value("0O7_7"), 63);
  EXPECT_EQ(int_value("0b101"), 5);
  EXPECT_EQ(int_value("0B_1_0"), 2);
  EXPECT_EQ(int_value("0xFFFF"), 0xFFFF);
  EXPECT_EQ(int_value("18446744073709551616"), static_cast<__int128>(1) << 64);
}

TEST(Frontend, IntegerLiteralsAreExactTo127Bits) {
  const __int128 max = static_cast<__int128>((static_cast<unsigned __int128>(1) << 127) - 1);
  EXPECT_EQ(int_value("170141183460469231731687303715884105727"), max);
  EXPECT_EQ(int_value("0x7fffffffffffffffffffffffffffffff"), max);
  EXPECT_EQ(ast::int128_to_string(max), "170141183460469231731687303715884105727");
  EXPECT_EQ(expr_str("170141183460469231731687303715884105727"),
            "170141183460469231731687303715884105727");
}

TEST(Frontend, IntegerLiteralBeyond128BitsIsValueError) {
  for (const char* text : {"170141183460469231731687303715884105728",
                           "0x80000000000000000000000000000000",
                           "99999999999999999999999999999999999999999999999"}) {
    Failure f = parse_failure(std::string("x = ") + text + "\n");
    EXPECT_EQ(f.kind, ErrorKind::Value) << text;
    EXPECT_EQ(range_str(f.range), "1:5-1:" + std::to_string(5 + std::strlen(text))) << text;
  }
}

TEST(Frontend, MalformedNumbersAreSyntaxErrors) {
  EXPECT_SYNTAX_ERROR("x = 0777\n", 1, 5,
                      "leading zeros in decimal integer literals are not permitted; use an 0o "
                      "prefix for octal integers");
  EXPECT_SYNTAX_ERROR("x = 1__0\n", 1, 5, "invalid decimal literal");
  EXPECT_SYNTAX_ERROR("x = 1_\n", 1, 5, "invalid decimal literal");
  EXPECT_SYNTAX_ERROR("x = 1L\n", 1, 5, "invalid decimal literal");
  EXPECT_SYNTAX_ERROR("x = 0xFFl\n", 1, 5, "invalid hexadecimal literal");
  EXPECT_SYNTAX_ERROR("x = 0o78\n", 1, 5, "invalid digit '8' in octal literal");
  EXPECT_SYNTAX_ERROR("x = 0b12\n", 1, 5, "invalid digit '2' in binary literal");
  EXPECT_SYNTAX_ERROR("x = 12abc\n", 1, 5, "invalid decimal literal");
  EXPECT_SYNTAX_ERROR("x = 0x1fg\n", 1, 5, "invalid hexadecimal literal");
  EXPECT_EQ(expr_str("1if x else 2"), "(ifexp 1 if (name x) else 2)");  // tolerated by Python
  EXPECT_SYNTAX_ERROR("x = 1_000._5\n", 1, 5, "invalid decimal literal");
  EXPECT_EQ(parse_failure("x = 0x\n").kind, ErrorKind::Syntax);
  EXPECT_EQ(parse_failure("x = 1e\n").kind, ErrorKind::Syntax);
}

double float_value(const std::string& text) { return as<ast::FloatLit>(parse_expr(text)).value; }

TEST(Frontend, FloatLiteralForms) {
  EXPECT_EQ(float_value("1.5"), 1.5);
  EXPECT_EQ(float_value("1e-5"), 1e-5);
  EXPECT_EQ(float_value("1E+3"), 1000.0);
  EXPECT_EQ(float_value(".5"), 0.5);
  EXPECT_EQ(float_value("1."), 1.0);
  EXPECT_EQ(float_value("0.044715"), 0.044715);
  EXPECT_EQ(float_value("1_000.000_1"), 1000.0001);
  EXPECT_EQ(float_value("1e1_0"), 1e10);
  EXPECT_EQ(float_value("007.5"), 7.5);
  EXPECT_EQ(float_value("1e400"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(float_value("1e-400"), 0.0);
  EXPECT_EQ(float_value("5e-324"), 5e-324);
  EXPECT_EQ(float_value("1.7976931348623157e308"), std::numeric_limits<double>::max());
  EXPECT_EQ(as<ast::UnsupportedExpr>(parse_expr("1.5j")).what, "complex literal");
  EXPECT_EQ(as<ast::UnsupportedExpr>(parse_expr("2J")).what, "complex literal");
}

std::string str_value(const std::string& text) { return as<ast::StrLit>(parse_expr(text)).value; }

TEST(Frontend, StringLiteralForms) {
  EXPECT_EQ(str_value("'single'"), "single");
  EXPECT_EQ(str_value("\"double\""), "double");
  EXPECT_EQ(str_value("'''tri'ple'''"), "tri'ple");
  EXPECT_EQ(str_value("\"\"\"a\nb\"\"\""), "a\nb");
  EXPECT_EQ(str_value("'a' \"b\" '''c'''"), "abc");
  EXPECT_EQ(str_value("('a'\n 'b')"), "ab");
  EXPECT_EQ(str_value("u'uni'"), "uni");
  EXPECT_EQ(str_value("''"), "");
  EXPECT_EQ(str_value("'héllo'"), "héllo");
  EXPECT_EQ(range_str(parse_expr("'a' 'b'")->range), "1:1-1:8");
}

TEST(Frontend, StringEscapes) {
  EXPECT_EQ(str_value(R"('a\nb\tc')"), "a\nb\tc");
  EXPECT_EQ(str_value(R"('q\'q\"\\')"), "q'q\"\\");
  EXPECT_EQ(str_value(R"('\x41\101\0')"), std::string("AA\0", 3));
  EXPECT_EQ(str_value(R"('\u00e9\U0001F600')"), "\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_EQ(str_value(R"('\a\b\f\v\r')"), "\a\b\f\v\r");
  EXPECT_EQ(str_value(R"('\d\w')"), "\\d\\w");  // unknown escapes keep the backslash
  EXPECT_EQ(str_value("'line\\\ncontinued'"), "linecontinued");
  EXPECT_EQ(str_value(R"(r'raw\n\'')"), "raw\\n\\'");
  EXPECT_EQ(str_value(R"(R"raw\d")"), "raw\\d");
  EXPECT_EQ(str_value("'''a\r\nb'''"), "a\nb");
  EXPECT_EQ(parse_failure(R"(x = '\x4')").kind, ErrorKind::Syntax);
  EXPECT_EQ(parse_failure(R"(x = '\U00110000')").kind, ErrorKind::Syntax);
}

TEST(Frontend, BytesAreUnsupported) {
  EXPECT_EQ(as<ast::UnsupportedExpr>(parse_expr("b'raw'")).what, "bytes literal");
  EXPECT_EQ(as<ast::UnsupportedExpr>(parse_expr("b'a' rb'b'")).what, "bytes literal");
  EXPECT_SYNTAX_ERROR("x = 'a' b'b'\n", 1, 5, "cannot mix bytes and nonbytes literals");
}

// ---- f-strings --------------------------------------------------------------------------------

TEST(Frontend, FStringsBecomeLiteralAndFieldPieces) {
  EXPECT_EQ(expr_str("f'{x}'"), "(fstring (field (name x)))");
  EXPECT_EQ(expr_str("f'a{{b}}\\n{x!r} {y:>8.3f}'"),
            "(fstring \"a{b}\\n\" (field (name x) !r) \" \" (field (name y) (spec \">8.3f\")))");
  // Concatenated plain strings join the literal runs; a nested field stays in the spec.
  EXPECT_EQ(expr_str("'a' f'{x:>{w}}' 'b'"),
            "(fstring \"a\" (field (name x) (spec \">\" (field (name w)))) \"b\")");
  EXPECT_EQ(expr_str("rf'\\n{x}'"), "(fstring \"\\\\n\" (field (name x)))");
  // `{x=}` prints the expression's text, then its repr.
  EXPECT_EQ(expr_str("f'{a + b = }'"), "(fstring \"a + b = \" (field (binop + (name a) (name b)) !r))");
  EXPECT_EQ(expr_str("f'{t, u}'"), "(fstring (field (tuple (name t) (name u))))");
  EXPECT_EQ(expr_str("f'{x:}'"), "(fstring (field (name x) (spec)))");
  ast::ExprPtr e = parse_expr("f'ab{x:5d}'");
  const auto& f = as<ast::FString>(e);
  ASSERT_EQ(f.pieces.size(), 2u);
  EXPECT_EQ(range_str(f.pieces[1].range), "1:5-1:11");
  EXPECT_EQ(f.pieces[1].format_spec.at(0).text, "5d");
}

TEST(Frontend, WithStatementsAndYields) {
  ast::Module module = parse(
      "with a() as x, b(1) as (y, z):\n"
      "    pass\n"
      "with (c() as w, d()):\n"
      "    pass\n"
      "def g():\n"
      "    yield\n"
      "    v = yield 3\n");
  ASSERT_EQ(module.body.size(), 3u);
  const auto& first = as<ast::With>(*module.body[0]);
  ASSERT_EQ(first.items.size(), 2u);
  EXPECT_EQ(print_expr(first.items[1].target), "(tuple (name y) (name z))");
  EXPECT_EQ(range_str(first.items[1].range), "1:16-1:30");
  const auto& second = as<ast::With>(*module.body[1]);
  ASSERT_EQ(second.items.size(), 2u);
  EXPECT_EQ(second.items[1].target, nullptr);
  const auto& g = as<ast::FunctionDef>(*module.body[2]);
  EXPECT_EQ(print_expr(as<ast::ExprStmt>(*g.body[0]).value), "(yield)");
  EXPECT_EQ(print_expr(as<ast::Assign>(*g.body[1]).value), "(yield 3)");
  EXPECT_SYNTAX_ERROR("with a() as f():\n    pass\n", 1, 13, "cannot assign to expression");
}

// `{k: v, **d}` keeps its items in order; a `**d` item has no key.
TEST(Frontend, DictDisplays) {
  EXPECT_EQ(expr_str("{}"), "(dict)");
  EXPECT_EQ(expr_str("{'a': 1, **d, (1, 2): x,}"), "(dict (\"a\" : 1) (** (name d)) ((tuple 1 2) : (name x)))");
  EXPECT_EQ(expr_str("f(**{'k': v})"), "(call (name f) (kw ** (dict (\"k\" : (name v)))))");
}

// ---- unsupported constructs ----------------------------------------------------------------

TEST(Frontend, UnsupportedExpressionsAreKept) {
  const std::pair<const char*, const char*> cases[] = {
      {"{1, 2}", "set display"},
      {"{x for x in y}", "set comprehension"},
      {"{k: v for k, v in y}", "dict comprehension"},
      {"(y := 3)", "walrus operator"},
      {"await x", "await"},
      {"(yield from x)", "yield from"},
  };
  for (auto [text, what] : cases) {
    ast::ExprPtr e = parse_expr(text);
    EXPECT_EQ(as<ast::UnsupportedExpr>(e).what, what) << text;
  }
  // Inside supported constructs they stay where they were.
  EXPECT_EQ(expr_str("f(lambda v: v, key={1, 2})"),
            "(call (name f) (lambda (v) ...) (kw key (unsupported \"set display\")))");
  // A generator expression becomes the call of a function "<genexpr>" taking the first
  // iterable (cuTile's tuple comprehensions; lower_generator), a list comprehension a list
  // display of the like call of "<listcomp>" (host Python inside static_eval).
  EXPECT_EQ(expr_str("tuple(x for x in y)"), "(call (name tuple) (call (lambda (.0) ...) (name y)))");
  ast::ExprPtr listcomp = parse_expr("sum([x for x in y])");
  EXPECT_EQ(expr_str("sum([x for x in y])"), "(call (name sum) (list (call (lambda (.0) ...) (name y))))");
  EXPECT_TRUE(ast::is_list_comprehension(as<ast::ListExpr>(as<ast::Call>(listcomp).args[0])));
  EXPECT_FALSE(ast::is_list_comprehension(as<ast::ListExpr>(parse_expr("[f(x)]"))));
  // A walrus keeps the name it assigns, which static_eval's error names.
  EXPECT_EQ(as<ast::UnsupportedExpr>(parse_expr("(y := 3)")).assigned_name, "y");
  ast::ExprPtr lambda = as<ast::Assign>(only_stmt(parse("x = (lambda: 0)"))).value;
  EXPECT_EQ(range_str(lambda->range), "1:6-1:15");
}

TEST(Frontend, UnsupportedStatementsAreKept) {
  ast::Module module = parse(
      "global g\n"
      "def f():\n"
      "    nonlocal n\n"
      "del a\n"
      "raise ValueError('x') from None\n"
      "assert x, 'message'\n"
      "async with open(p) as fh:\n"
      "    pass\n"
      "try:\n"
      "    pass\n"
      "except Exception as e:\n"
      "    pass\n"
      "finally:\n"
      "    pass\n"
      "class C(Base):\n"
      "    x = 1\n"
      "@dataclass\n"
      "class D:\n"
      "    pass\n"
      "async def g():\n"
      "    pass\n"
      "match v:\n"
      "    case 1:\n"
      "        pass\n"
      "type Alias = int\n"
      "x = yield\n");
  std::vector<std::string> whats;
  for (const auto& s : module.body)
    if (const auto* u = s->as<ast::UnsupportedStmt>()) whats.push_back(u->what);
  EXPECT_EQ(whats, (std::vector<std::string>{
                       "global statement", "del statement", "raise statement",
                       "assert statement", "async with statement", "try/except", "async function",
                       "match statement", "type alias"}));
  const auto& f = as<ast::FunctionDef>(*module.body[1]);
  EXPECT_EQ(as<ast::UnsupportedStmt>(*f.body.at(0)).what, "nonlocal statement");
  EXPECT_EQ(module.body[8]->range.line, 18);  // the decorated class: its `class` line
  EXPECT_EQ(as<ast::ClassDef>(*module.body[7]).name, "C");  // classes are kept for sema
  EXPECT_EQ(as<ast::ClassDef>(*module.body[8]).decorators.size(), 1u);
  EXPECT_EQ(print_expr(as<ast::Assign>(*module.body.back()).value), "(yield)");
  EXPECT_EQ(range_str(module.body[6]->range), "9:1-14:9");
}

TEST(Frontend, UnsupportedInsideFunctionsDoesNotFailTheModule) {
  // cuTile only checks a function when it is compiled: a helper may use anything.
  ast::Module module = parse(
      "def helper(xs):\n"
      "    try:\n"
      "        return [x * 2 for x in xs if x]\n"
      "    finally:\n"
      "        pass\n"
      "def kernel(a):\n"
      "    return a\n");
  ASSERT_EQ(module.body.size(), 2u);
  EXPECT_EQ(as<ast::UnsupportedStmt>(*as<ast::FunctionDef>(*module.body[0]).body.at(0)).what,
            "try/except");
}

// ---- ranges -------------------------------------------------------------------------------

TEST(Frontend, RangesCountCodePoints) {
  ast::Module module = parse("s = 'héllo→' + yé  # ü\nz = 1\n");
  const auto& assign = as<ast::Assign>(*module.body[0]);
  EXPECT_EQ(range_str(module.body[0]->range), "1:1-1:18");
  const auto& sum = as<ast::Binary>(assign.value);
  EXPECT_EQ(range_str(sum.lhs->range), "1:5-1:13");
  EXPECT_EQ(range_str(sum.rhs->range), "1:16-1:18");
  EXPECT_EQ(as<ast::Name>(sum.rhs).id, "yé");
  EXPECT_EQ(as<ast::StrLit>(sum.lhs).value, "héllo→");
  EXPECT_EQ(range_str(module.body[1]->range), "2:1-2:6");
}

TEST(Frontend, RangesOfNestedNodes) {
  ast::Module module = parse(
      "def k(a):\n"
      "    x = ct.load(a, index=(0,),\n"
      "                shape=(4,))\n");
  const auto& def = as<ast::FunctionDef>(only_stmt(module));
  EXPECT_EQ(range_str(only_stmt(module).range), "1:1-3:28");
  const ast::Stmt& assign = *def.body.at(0);
  EXPECT_EQ(range_str(assign.range), "2:5-3:28");
  const auto& call = as<ast::Call>(as<ast::Assign>(assign).value);
  EXPECT_EQ(range_str(as<ast::Assign>(assign).value->range), "2:9-3:28");
  EXPECT_EQ(range_str(call.func->range), "2:9-2:16");
  EXPECT_EQ(range_str(call.args.at(0)->range), "2:17-2:18");
  EXPECT_EQ(range_str(call.keywords.at(1).range), "3:17-3:27");
  EXPECT_EQ(range_str(call.keywords.at(1).value->range), "3:23-3:27");
  EXPECT_EQ(range_str(as<ast::Assign>(assign).targets.at(0)->range), "2:5-2:6");
}

// ---- syntax errors ------------------------------------------------------------------------

TEST(FrontendErrors, MissingColon) {
  EXPECT_SYNTAX_ERROR("if x\n    pass\n", 1, 5, "expected ':'");
  EXPECT_SYNTAX_ERROR("def f(a, b)\n    return a\n", 1, 12, "expected ':'");
  EXPECT_SYNTAX_ERROR("for i in range(3)\n    pass\n", 1, 18, "expected ':'");
  EXPECT_SYNTAX_ERROR("while True\n    pass\n", 1, 11, "expected ':'");
  EXPECT_SYNTAX_ERROR("if x:\n    pass\nelse\n    pass\n", 3, 5, "expected ':'");
  EXPECT_SYNTAX_ERROR("def k(a):\n    if a > 0\n        a = a * 2.0\n    f(a, index=(0,))\n", 2,
                      13, "expected ':'");
}

TEST(FrontendErrors, Brackets) {
  EXPECT_SYNTAX_ERROR("x = (1, 2\n", 1, 5, "'(' was never closed");
  EXPECT_SYNTAX_ERROR("x = [1, 2\ny = 3\n", 1, 5, "'[' was never closed");
  EXPECT_SYNTAX_ERROR("f(a, g(b)\n", 1, 2, "'(' was never closed");
  EXPECT_SYNTAX_ERROR("x = (1, 2]\n", 1, 10,
                      "closing parenthesis ']' does not match opening parenthesis '('");
  EXPECT_SYNTAX_ERROR("x = (1,\n 2]\n", 2, 3,
                      "closing parenthesis ']' does not match opening parenthesis '(' on line 1");
  EXPECT_SYNTAX_ERROR("def f(x):\n    return x)\n", 2, 13, "unmatched ')'");
  EXPECT_SYNTAX_ERROR("def f(:\n  pass\n", 1, 6, "'(' was never closed");
}

TEST(FrontendErrors, UnterminatedStrings) {
  EXPECT_SYNTAX_ERROR("s = \"abc\nx = 1\n", 1, 5, "unterminated string literal (detected at line 1)");
  EXPECT_SYNTAX_ERROR("s = '''abc\n\nx = 1\n", 1, 5,
                      "unterminated triple-quoted string literal (detected at line 3)");
}

TEST(FrontendErrors, IndentationProblems) {
  EXPECT_SYNTAX_ERROR("def f():\nreturn 1\n", 2, 1,
                      "expected an indented block after function definition on line 1");
  EXPECT_SYNTAX_ERROR("if x:\n# just a comment\n", 2, 17,
                      "expected an indented block after 'if' statement on line 1");
  EXPECT_SYNTAX_ERROR("for x in y:\n    if x:\n    pass\n", 3, 5,
                      "expected an indented block after 'if' statement on line 2");
  EXPECT_SYNTAX_ERROR("x = 1\n  y = 2\n", 2, 3, "unexpected indent");
  EXPECT_SYNTAX_ERROR("  x = 1\n", 1, 3, "unexpected indent");
  EXPECT_SYNTAX_ERROR("if x:\n    a\n  b\n", 3, 3,
                      "unindent does not match any outer indentation level");
  EXPECT_SYNTAX_ERROR("if x:\n    a\n        b\n", 3, 9, "unexpected indent");
  EXPECT_SYNTAX_ERROR("if x: a\n    b\n", 2, 5, "unexpected indent");
  EXPECT_SYNTAX_ERROR("if x:\n    a\n  else:\n    b\n", 3, 3,
                      "unindent does not match any outer indentation level");
  EXPECT_SYNTAX_ERROR("if x:\n\tpass\n        pass\n", 3, 9,
                      "inconsistent use of tabs and spaces in indentation");
  // Continuation lines are not statements and may be indented freely.
  EXPECT_EQ(parse("x = [1,\n        2]\ny = 1 + \\\n      2\n").body.size(), 2u);
}

TEST(FrontendErrors, IndentationDepthLimit) {
  // CPython keeps 100 indentation levels, module level included.
  auto nested = [](int levels) {
    std::string text = "def f(x):\n";
    for (int i = 1; i < levels; ++i)
      text += std::string(size_t(i) * 2, ' ') + "if x:\n";
    return text + std::string(size_t(levels) * 2, ' ') + "pass\n";
  };
  EXPECT_TRUE(parses(nested(99)));
  EXPECT_SYNTAX_ERROR(nested(100), 101, 201, "too many levels of indentation");
}

TEST(FrontendErrors, KeywordsAreNotNames) {
  EXPECT_SYNTAX_ERROR("else:\n    pass\n", 1, 1, "invalid syntax");
  EXPECT_SYNTAX_ERROR("x.if\n", 1, 1, "invalid syntax");
  EXPECT_SYNTAX_ERROR("def f():\n    y = x +\n    return y\n", 3, 5, "invalid syntax");
  EXPECT_SYNTAX_ERROR("async = 1\n", 1, 1, "invalid syntax");
  // Soft keywords and Python 2 statement words are ordinary names in Python 3.
  EXPECT_EQ(expr_str("match + type + print + exec + _"),
            "(binop + (binop + (binop + (binop + (name match) (name type)) (name print)) "
            "(name exec)) (name _))");
}

TEST(FrontendErrors, Python2Forms) {
  EXPECT_SYNTAX_ERROR("print 'hi'\n", 1, 1,
                      "Missing parentheses in call to 'print'. Did you mean print(...)?");
  EXPECT_SYNTAX_ERROR("exec 'code'\n", 1, 1,
                      "Missing parentheses in call to 'exec'. Did you mean exec(...)?");
  EXPECT_SYNTAX_ERROR("x = a <> b\n", 1, 7, "invalid syntax");
  EXPECT_SYNTAX_ERROR("x = `a`\n", 1, 5, "invalid syntax");
  EXPECT_SYNTAX_ERROR("x = ur'a'\n", 1, 5, "invalid syntax");
}

TEST(FrontendErrors, BadTokens) {
  EXPECT_SYNTAX_ERROR("x = $\n", 1, 5, "invalid syntax");
  EXPECT_SYNTAX_ERROR("x = 1 ? 2\n", 1, 7, "invalid syntax");
  EXPECT_SYNTAX_ERROR("x = a → b\n", 1, 7, "invalid character '→' (U+2192)");
  EXPECT_SYNTAX_ERROR("a b\n", 1, 1, "invalid syntax");
  EXPECT_SYNTAX_ERROR("x = 1 +\n", 1, 1, "invalid syntax");
}

TEST(FrontendErrors, CallAndParameterRules) {
  EXPECT_SYNTAX_ERROR("f(x=1, 2)\n", 1, 8, "positional argument follows keyword argument");
  EXPECT_SYNTAX_ERROR("f(**k, 2)\n", 1, 8,
                      "positional argument follows keyword argument unpacking");
  EXPECT_SYNTAX_ERROR("f(**k, *a)\n", 1, 8,
                      "iterable argument unpacking follows keyword argument unpacking");
  EXPECT_SYNTAX_ERROR("f(a=1, a=2)\n", 1, 8, "keyword argument repeated: a");
  EXPECT_SYNTAX_ERROR("def f(a=1, b): pass\n", 1, 12,
                      "parameter without a default follows parameter with a default");
  EXPECT_SYNTAX_ERROR("def f(a, *, a): pass\n", 1, 13,
                      "duplicate argument 'a' in function definition");
  EXPECT_EQ(parse("f(*a, k=1, *b, **c)\ndef g(a=1, *b, c, d=2, **e): pass\n").body.size(), 2u);
}

TEST(FrontendErrors, AssignmentTargets) {
  EXPECT_SYNTAX_ERROR("(a, b) += 1\n", 1, 1,
                      "'tuple' is an illegal expression for augmented assignment");
  EXPECT_SYNTAX_ERROR("[a] += 1\n", 1, 1, "'list' is an illegal expression for augmented assignment");
  EXPECT_SYNTAX_ERROR("(a, b): int = 1\n", 1, 1, "only single target (not tuple) can be annotated");
  EXPECT_SYNTAX_ERROR("*a = b\n", 1, 1, "starred assignment target must be in a list or tuple");
  EXPECT_SYNTAX_ERROR("a, *b, *c = d\n", 1, 8, "multiple starred expressions in assignment");
  EXPECT_EQ(parse_failure("f() = 1\n").kind, ErrorKind::Syntax);
  EXPECT_EQ(parse_failure("1 = x\n").kind, ErrorKind::Syntax);
}

TEST(FrontendErrors, StatementsMustBeSeparated) {
  EXPECT_SYNTAX_ERROR("x = 1; if y: pass\n", 1, 1, "invalid syntax");
  EXPECT_EQ(parse_failure("a = 1 b = 2\n").kind, ErrorKind::Syntax);
}

// Found by comparing with CPython's parser on mutated samples: tree-sitter-python accepts
// these, Python does not.
TEST(FrontendErrors, WhatTreeSitterAcceptsButPythonDoesNot) {
  EXPECT_SYNTAX_ERROR("x := 1\n", 1, 1, "invalid syntax");
  EXPECT_SYNTAX_ERROR("x = y := 1\n", 1, 5, "invalid syntax");
  EXPECT_SYNTAX_ERROR("a.b as c\n", 1, 1, "invalid syntax");
  EXPECT_SYNTAX_ERROR("import a as\n b\n", 1, 12, "invalid syntax");
  EXPECT_SYNTAX_ERROR("for x in y:\n    pass\nelse\n :\n    pass\n", 3, 5, "expected ':'");
  EXPECT_SYNTAX_ERROR("x = (*a)\n", 1, 6, "cannot use starred expression here");
  EXPECT_SYNTAX_ERROR("x = *a\n", 1, 5, "cannot use starred expression here");
  EXPECT_SYNTAX_ERROR("x = -*a, b\n", 1, 6, "cannot use starred expression here");
  EXPECT_SYNTAX_ERROR("def f(a: float: C): pass\n", 1, 10, "invalid syntax");
  EXPECT_SYNTAX_ERROR("def f(b: *Ts): pass\n", 1, 10, "invalid syntax");
  EXPECT_SYNTAX_ERROR("y = [x for x in a, b]\n", 1, 18, "invalid syntax");
  EXPECT_SYNTAX_ERROR("f(x for x in y,)\n", 1, 15, "Generator expression must be parenthesized");
  EXPECT_SYNTAX_ERROR("raise from y\n", 1, 7, "invalid syntax");
  EXPECT_SYNTAX_ERROR("from . import a,\n", 1, 16,
                      "trailing comma not allowed without surrounding parentheses");
  EXPECT_SYNTAX_ERROR("from m import a.b\n", 1, 15, "invalid syntax");
  EXPECT_SYNTAX_ERROR("x = \"ab\\t\ncd\"\n", 1, 5,
                      "unterminated string literal (detected at line 1)");
  EXPECT_SYNTAX_ERROR("f(x, yield y)\n", 1, 6, "invalid syntax");
  EXPECT_SYNTAX_ERROR("x = a + await -b\n", 1, 9, "invalid syntax");
  EXPECT_SYNTAX_ERROR("x += y = 1\n", 1, 6, "invalid syntax");
  EXPECT_SYNTAX_ERROR("x = y += 1\n", 1, 5, "invalid syntax");
  EXPECT_SYNTAX_ERROR("f( ,)\n", 1, 4, "invalid syntax");
  EXPECT_SYNTAX_ERROR("x = {,}\n", 1, 6, "invalid syntax");
  EXPECT_SYNTAX_ERROR("x = 1\\\n", 1, 7, "unexpected EOF while parsing");
  EXPECT_SYNTAX_ERROR("x = 1 + \\\n\n", 1, 10, "unexpected EOF while parsing");
  EXPECT_SYNTAX_ERROR("x = 1  # not a continuation \\\ny = *z\n", 2, 5,
                      "cannot use starred expression here");
  EXPECT_SYNTAX_ERROR("x = '\\N'\n", 1, 5, "(unicode error) malformed \\N character escape");
  EXPECT_SYNTAX_ERROR("@dec\n  def f(): pass\n", 2, 3, "unexpected indent");
  EXPECT_SYNTAX_ERROR("del a, (b, 1)\n", 1, 12, "cannot delete literal");
  EXPECT_SYNTAX_ERROR("del f()\n", 1, 5, "cannot delete function call");
  // ... and what they accept that Python accepts too.
  ast::Module ok = parse(
      "if (n := 10) > 5: pass\n"
      "while chunk := read(): pass\n"
      "x = yield y\n"
      "def g(*args: *Ts): pass\n"
      "with open(p) as f: pass\n"
      "try: pass\nexcept E as e: pass\n"
      "x = '\\N{EM DASH}'\n"
      "f(a := 1)\n");
  EXPECT_EQ(ok.body.size(), 8u);
  EXPECT_EQ(print_expr(as<ast::Assign>(*ok.body[6]).value),
            "(unsupported \"\\\\N{...} escape in string\")");
}

TEST(FrontendErrors, ParameterListRules) {
  EXPECT_SYNTAX_ERROR("def f(*a, *b): pass\n", 1, 11, "* argument may appear only once");
  EXPECT_SYNTAX_ERROR("def f(*, a, *b): pass\n", 1, 13, "* argument may appear only once");
  EXPECT_SYNTAX_ERROR("def f(**k, a): pass\n", 1, 12, "arguments cannot follow var-keyword argument");
  EXPECT_SYNTAX_ERROR("def f(*): pass\n", 1, 6, "named arguments must follow bare *");
  EXPECT_SYNTAX_ERROR("def f(*, **k): pass\n", 1, 10, "named arguments must follow bare *");
  EXPECT_SYNTAX_ERROR("def f(a, /, b, /): pass\n", 1, 16, "/ may appear only once");
  EXPECT_SYNTAX_ERROR("def f(*, a, /): pass\n", 1, 13, "/ must be ahead of *");
  EXPECT_SYNTAX_ERROR("def f(/, a): pass\n", 1, 7, "at least one argument must precede /");
  EXPECT_EQ(parse("def f(a, /, b=1, *c, d, e=2, **f): pass\n").body.size(), 1u);
}

TEST(FrontendErrors, StarBindsLooserThanBinaryOperators) {
  // tree-sitter reads `*b + c` as (*b) + c; Python as *(b + c).
  EXPECT_EQ(expr_str("a, *b + c * d"),
            "(tuple (name a) (starred (binop + (name b) (binop * (name c) (name d)))))");
  ast::ExprPtr e = parse_expr("a, *b + c");
  const auto& starred = as<ast::Starred>(as<ast::TupleExpr>(e).elts.at(1));
  EXPECT_EQ(range_str(as<ast::TupleExpr>(e).elts[1]->range), "1:4-1:10");
  EXPECT_EQ(range_str(starred.value->range), "1:5-1:10");
  EXPECT_EQ(expr_str("f(*a + b)"), "(call (name f) (starred (binop + (name a) (name b))))");
}

TEST(FrontendErrors, EarliestProblemWins) {
  // The indent on line 2 comes before tree-sitter's own error on line 3.
  EXPECT_SYNTAX_ERROR("x = 1\n  y = 2\nz = 1 +\n", 2, 3, "unexpected indent");
  EXPECT_SYNTAX_ERROR("def f():\n    a = 0777\n    b = 1 +\n", 2, 9,
                      "leading zeros in decimal integer literals are not permitted; use an 0o "
                      "prefix for octal integers");
}

TEST(FrontendErrors, DedentedContinuationGetsAHint) {
  // Python reads this; tree-sitter-python's scanner takes the short line for a dedent.
  Failure f = parse_failure("def f(r):\n    return g(r.\nx)\n");
  EXPECT_EQ(f.kind, ErrorKind::Syntax);
  EXPECT_EQ(range_str(f.range), "3:1-3:2");
  EXPECT_NE(f.message.find("indented less than the line it continues"), std::string::npos);
  // Lines inside brackets indented further, or after a comma, are fine.
  EXPECT_EQ(parse("def f(r):\n    return g(r.\n             x)\n").body.size(), 1u);
  EXPECT_EQ(parse("def f(r):\n    return g(r,\nx)\n").body.size(), 1u);
}

TEST(FrontendErrors, EncodingProblems) {
  EXPECT_SYNTAX_ERROR(std::string("x = 1\ny = \0\n", 11), 2, 5,
                      "source code cannot contain null bytes");
  EXPECT_SYNTAX_ERROR("x = 'caf\xE9'\n", 1, 9, "(unicode error) invalid UTF-8 byte 0xE9 in source");
  EXPECT_EQ(parse_failure("\xC0\x80").kind, ErrorKind::Syntax);  // overlong encoding
  EXPECT_EQ(parse_failure("x = '\xED\xA0\x80'").kind, ErrorKind::Syntax);  // surrogate
}

TEST(FrontendErrors, ErrorsCarryTheFile) {
  auto file = std::make_shared<SourceFile>("bad.py", "if x\n    pass\n");
  try {
    parse_module(file);
    FAIL() << "expected a CompileError";
  } catch (const CompileError& e) {
    ASSERT_FALSE(e.frames().empty());
    EXPECT_EQ(e.frames().front().file->path(), "bad.py");
    EXPECT_NE(render_diagnostic(e).find("bad.py:1:5"), std::string::npos);
  }
}

// ---- robustness ---------------------------------------------------------------------------

TEST(FrontendRobustness, RandomBytesNeverCrash) {
  std::mt19937 rng(1234);
  for (int round = 0; round < 300; ++round) {
    std::string text(size_t(rng() % 200), '\0');
    for (char& c : text) c = char(rng() % 256);
    EXPECT_NO_THROW(parses(text));
  }
}

TEST(FrontendRobustness, RandomTokenSoupNeverCrashes) {
  const char* tokens[] = {"(", ")", "[", "]", "{", "}", ":", ",", ".", "=", "+", "-", "*",
                          "**", "/", "//", "if", "else", "elif", "for", "in", "while", "def",
                          "return", "lambda", "x", "y", "1", "0x1F", "1.5", "'s'", "\"\"\"",
                          "\n", "\n    ", "\n        ", "\t", "#c\n", "\\\n", ";", "@", "not",
                          "and", "or", "is", "None", "True", "import", "from", "as", "->",
                          "...", "f'", "{x}", "'", "é", "→", "yield", "class", "try", "with"};
  std::mt19937 rng(99);
  int accepted = 0;
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    int count = int(rng() % 40);
    for (int i = 0; i < count; ++i) {
      text += tokens[rng() % std::size(tokens)];
      if (rng() % 2) text += ' ';
    }
    accepted += parses(text) ? 1 : 0;
  }
  EXPECT_GT(accepted, 0);
}

TEST(FrontendRobustness, TruncatedValidProgramsNeverCrash) {
  const std::string program =
      "import cuda.tile as ct\n"
      "@ct.kernel\n"
      "def k(a, b, TILE: ct.Constant[int]):\n"
      "    \"\"\"Doc.\"\"\"\n"
      "    i = ct.bid(0)\n"
      "    t = ct.load(a, index=(i,), shape=(TILE,))\n"
      "    if t.dtype == ct.float32 and TILE > 4:\n"
      "        t = t * 2.0 + 1e-5\n"
      "    else:\n"
      "        t = -t[:, None]\n"
      "    ct.store(b, index=(i,), tile=t)\n";
  EXPECT_TRUE(parses(program));
  for (size_t cut = 0; cut < program.size(); ++cut) EXPECT_NO_THROW(parses(program.substr(0, cut)));
}

TEST(FrontendRobustness, DeepButAcceptableNesting) {
  std::string parens = std::string(200, '(') + "x" + std::string(200, ')');
  EXPECT_EQ(expr_str(parens), "(name x)");
  std::string lists = std::string(150, '[') + "1" + std::string(150, ']');
  EXPECT_TRUE(parses(lists));
  std::string negations = std::string(300, '-') + "x";
  EXPECT_TRUE(parses(negations));
  std::string blocks;
  for (int depth = 0; depth < 60; ++depth)
    blocks += std::string(size_t(depth) * 2, ' ') + "if x:\n";
  blocks += std::string(120, ' ') + "pass\n";
  EXPECT_TRUE(parses(blocks));
}

TEST(FrontendRobustness, TooDeepNestingIsAnError) {
  for (size_t depth : {1000, 5000, 100000}) {
    std::string text = "y = " + std::string(depth, '(') + "x" + std::string(depth, ')') + "\n";
    Failure f = parse_failure(text);
    EXPECT_EQ(f.kind, ErrorKind::Syntax);
    EXPECT_EQ(f.message, "nesting too deep") << depth;
  }
  std::string unary = "y = " + std::string(100000, '-') + "x\n";
  EXPECT_EQ(parse_failure(unary).message, "nesting too deep");
  std::string chain = "y = x" + std::string(0, ' ');
  for (int i = 0; i < 3000; ++i) chain += " + x";
  EXPECT_EQ(parse_failure(chain + "\n").message, "nesting too deep");
  // Unbalanced: tree-sitter's error recovery must terminate too.
  EXPECT_EQ(parse_failure(std::string(100000, '(')).kind, ErrorKind::Syntax);
  EXPECT_EQ(parse_failure(std::string(100000, ']')).kind, ErrorKind::Syntax);
}

TEST(FrontendRobustness, LongFlatSequencesNeedNoDepth) {
  // Long elif chains, boolean chains and assignment chains are lowered without recursion.
  std::string elifs = "if a == 0:\n    pass\n";
  for (int i = 1; i < 1000; ++i) elifs += "elif a == " + std::to_string(i) + ":\n    pass\n";
  EXPECT_TRUE(parses(elifs));
  std::string ors = "x = a";
  for (int i = 0; i < 2000; ++i) ors += " or a";
  ast::ExprPtr value = as<ast::Assign>(only_stmt(parse(ors))).value;
  const auto& chain = as<ast::BoolChain>(value);
  EXPECT_EQ(chain.values.size(), 2001u);
  std::string assigns = "a";
  for (int i = 0; i < 2000; ++i) assigns += " = a";
  EXPECT_EQ(as<ast::Assign>(only_stmt(parse(assigns))).targets.size(), 2000u);
  std::string stmts;
  for (int i = 0; i < 20000; ++i) stmts += "x = " + std::to_string(i) + "\n";
  EXPECT_EQ(parse(stmts).body.size(), 20000u);
}

TEST(FrontendRobustness, ElifChainsOfAnyLengthStayFlat) {
  // Python accepts any number of elifs; the AST, its printer and its destruction must not
  // recurse once per elif (9,000 overflowed the stack).
  std::string elifs = "if a == 0:\n    x = 0\n";
  for (int i = 1; i < 50000; ++i) elifs += "elif a == " + std::to_string(i) + ":\n    x = 1\n";
  elifs += "else:\n    x = 2\n";
  ast::Module module = parse(elifs);
  const auto& chain = as<ast::If>(only_stmt(module));
  ASSERT_EQ(chain.branches.size(), 50000u);
  EXPECT_EQ(chain.branches.back().range.line, 2 * 50000 - 1);
  EXPECT_EQ(chain.orelse.size(), 1u);
  std::string printed = print_ast(module);
  EXPECT_NE(printed.find("\n  (elif (compare (name a) == 49999)) @99999:1\n    (assign"), std::string::npos);
  EXPECT_LT(printed.size(), 100u * 50000);  // elifs print at one depth: no indentation blow-up
}

TEST(FrontendRobustness, BackslashInACommentContinuesNothing) {
  // `# C:\temp\` ends its line like any comment: the next line starts a statement.
  ast::Module module = parse("def f(b):\n    # C:\\temp\\\n    c = 1\n    d = 2\n");
  EXPECT_EQ(as<ast::FunctionDef>(only_stmt(module)).body.size(), 2u);
  EXPECT_EQ(parse("x = 1  # C:\\temp\\\ny = 2\n").body.size(), 2u);
  // A real continuation still joins the lines.
  EXPECT_EQ(parse("x = 1 + \\\n    2\ny = 3\n").body.size(), 2u);
}

TEST(FrontendRobustness, LongCommentRunsParseInLinearTime) {
  // tree-sitter-python's scanner reads ahead past a run of comment lines at each of them
  // (quadratic); the parsed text has those lines blanked. 200,000 lines took minutes.
  std::string text = "def f(a):\n";
  for (int i = 0; i < 100000; ++i) text += "    # comment " + std::to_string(i) + "\n";
  text += "    return a\n";
  for (int i = 0; i < 100000; ++i) text += "# comment\n";
  auto start = std::chrono::steady_clock::now();
  ast::Module module = parse(text);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(as<ast::FunctionDef>(only_stmt(module)).body.size(), 1u);
  EXPECT_LT(seconds, 5.0);
  // Lines inside a string that start with '#' are string text, not comments.
  ast::Module doc = parse("s = \"\"\"\n# kept\n  # kept too\n\"\"\"\n");
  EXPECT_EQ(as<ast::StrLit>(as<ast::Assign>(only_stmt(doc)).value).value, "\n# kept\n  # kept too\n");
}

// ---- printer ------------------------------------------------------------------------------

TEST(AstPrinter, GoldenKernel) {
  ast::Module module = parse(
      "import cuda.tile as ct\n"
      "from .util import helper as h\n"
      "\n"
      "@ct.kernel\n"
      "def vector_add(a, b, c, TILE: ct.Constant[int], *rest, scale=0.5, **kw):\n"
      "    \"\"\"Adds.\"\"\"\n"
      "    bid = ct.bid(0)\n"
      "    x: ct.Tile = ct.load(a, index=(bid,), shape=(TILE,))\n"
      "    x += 0x10\n"
      "    if bid < 2 and not c:\n"
      "        pass\n"
      "    elif bid is None:\n"
      "        y = z = x[:, None]\n"
      "    else:\n"
      "        return\n"
      "    for i in range(3):\n"
      "        break\n"
      "    else:\n"
      "        continue\n"
      "    while x:\n"
      "        x = x if x else -x ** 2\n"
      "    ct.store(c, index=(bid,), tile=[x, 1e-5, 'q\"\\n', True, ...])\n"
      "    with ctx:\n"
      "        pass\n"
      "    return lambda: 0\n");
  const std::string expected =
      "(module\n"
      "  (import (cuda.tile as ct)) @1:1\n"
      "  (from .util import (helper as h)) @2:1\n"
      "  (def vector_add (params a b c (TILE : (subscript (attr (name ct) Constant) (name int))) "
      "*rest (scale = 0.5) **kw) (decorators (attr (name ct) kernel))) @5:1\n"
      "    (expr \"Adds.\") @6:5\n"
      "    (assign (name bid) = (call (attr (name ct) bid) 0)) @7:5\n"
      "    (annassign (name x) : (attr (name ct) Tile) = (call (attr (name ct) load) (name a) "
      "(kw index (tuple (name bid))) (kw shape (tuple (name TILE))))) @8:5\n"
      "    (augassign (name x) += 16) @9:5\n"
      "    (if (and (compare (name bid) < 2) (unary not (name c)))) @10:5\n"
      "      (pass) @11:9\n"
      "    (elif (compare (name bid) is None)) @12:5\n"
      "      (assign (name y) (name z) = (subscript (name x) (tuple (slice _ _ _) None))) @13:9\n"
      "    else\n"
      "      (return) @15:9\n"
      "    (for (name i) in (call (name range) 3)) @16:5\n"
      "      (break) @17:9\n"
      "    else\n"
      "      (continue) @19:9\n"
      "    (while (name x)) @20:5\n"
      "      (assign (name x) = (ifexp (name x) if (name x) else (unary - (binop ** (name x) 2)))) "
      "@21:9\n"
      "    (expr (call (attr (name ct) store) (name c) (kw index (tuple (name bid))) (kw tile "
      "(list (name x) 1e-05 \"q\\\"\\n\" True ...)))) @22:5\n"
      "    (with (item (name ctx))) @23:5\n"
      "      (pass) @24:9\n"
      "    (return (lambda () ...)) @25:5\n"
      ")\n";
  EXPECT_EQ(print_ast(module), expected);
  EXPECT_EQ(print_ast(module), print_ast(parse(  // deterministic across parses
      "import cuda.tile as ct\nfrom .util import helper as h\n\n@ct.kernel\n"
      "def vector_add(a, b, c, TILE: ct.Constant[int], *rest, scale=0.5, **kw):\n"
      "    \"\"\"Adds.\"\"\"\n    bid = ct.bid(0)\n"
      "    x: ct.Tile = ct.load(a, index=(bid,), shape=(TILE,))\n    x += 0x10\n"
      "    if bid < 2 and not c:\n        pass\n    elif bid is None:\n"
      "        y = z = x[:, None]\n    else:\n        return\n    for i in range(3):\n"
      "        break\n    else:\n        continue\n    while x:\n"
      "        x = x if x else -x ** 2\n"
      "    ct.store(c, index=(bid,), tile=[x, 1e-5, 'q\"\\n', True, ...])\n"
      "    with ctx:\n        pass\n    return lambda: 0\n")));
}

TEST(AstPrinter, Literals) {
  EXPECT_EQ(expr_str("0.1"), "0.1");
  EXPECT_EQ(expr_str("1e300"), "1e+300");
  EXPECT_EQ(expr_str("2."), "2.0");
  EXPECT_EQ(expr_str("1e400"), "inf");
  EXPECT_EQ(expr_str("'tab\\there\\x01'"), "\"tab\\there\\x01\"");
  EXPECT_EQ(expr_str("'é'"), "\"é\"");
  EXPECT_EQ(print_expr(nullptr), "_");
}

TEST(AstPrinter, Int128ToString) {
  EXPECT_EQ(ast::int128_to_string(0), "0");
  EXPECT_EQ(ast::int128_to_string(-42), "-42");
  const __int128 min = -static_cast<__int128>((static_cast<unsigned __int128>(1) << 127) - 1) - 1;
  EXPECT_EQ(ast::int128_to_string(min), "-170141183460469231731687303715884105728");
}

}  // namespace
}  // namespace tile2cu
