// The kernel AST: a small, typed mirror of the Python subset that tile code may use.
// The front end builds it from tree-sitter's syntax tree; later stages never see tree-sitter.
// Constructs outside the subset are kept as `Unsupported` nodes rather than rejected at
// parse time: cuTile only checks a function when it is compiled, so an unsupported
// construct in a helper nobody calls is no error.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "support/source.hpp"

namespace tile2cu::ast {

struct Expr;
struct Stmt;
struct FunctionDef;
using ExprPtr = std::shared_ptr<const Expr>;
using StmtPtr = std::shared_ptr<const Stmt>;
using Body = std::vector<StmtPtr>;

enum class BinaryOp { Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul, BitAnd, BitOr, BitXor, LShift, RShift };
enum class UnaryOp { Neg, Pos, Invert, Not };
enum class BoolOp { And, Or };
enum class CompareOp { Lt, Le, Gt, Ge, Eq, NotEq, Is, IsNot, In, NotIn };

const char* binary_op_token(BinaryOp op);   // "+", "//", ...
const char* compare_op_token(CompareOp op);  // "<", "is not", ...
std::string int128_to_string(__int128 value);  // exact decimal, e.g. for IntLit values

// ---- expressions ----------------------------------------------------------------------

struct Name { std::string id; };
// Integer literals are exact: Python ints are unbounded, and cuTile keeps literals loosely
// typed until they meet a typed operand. Values beyond 128 bits are rejected by the front end.
struct IntLit { __int128 value; };
struct FloatLit { double value; };
struct BoolLit { bool value; };
struct NoneLit {};
struct StrLit { std::string value; };
struct Attribute { ExprPtr value; std::string attr; };
struct Slice { ExprPtr lower, upper, step; };  // each may be null
struct Subscript { ExprPtr value; ExprPtr index; };  // index: a Tuple for `t[a, b]`
struct Keyword { std::string name; ExprPtr value; SourceRange range; };  // name empty for **kwargs
struct Starred { ExprPtr value; };                   // *args at a call site
struct Call { ExprPtr func; std::vector<ExprPtr> args; std::vector<Keyword> keywords; };
struct Binary { BinaryOp op; ExprPtr lhs, rhs; };
struct Unary { UnaryOp op; ExprPtr operand; };
struct BoolChain { BoolOp op; std::vector<ExprPtr> values; };
struct Compare { ExprPtr left; std::vector<CompareOp> ops; std::vector<ExprPtr> rights; };
struct IfExp { ExprPtr cond, then_value, else_value; };
struct TupleExpr { std::vector<ExprPtr> elts; };
struct ListExpr { std::vector<ExprPtr> elts; };
// `{k: v, **d}`: a null key marks a `**d` item, whose items are merged in at that place.
struct DictItem { ExprPtr key; ExprPtr value; };
struct DictExpr { std::vector<DictItem> items; };
struct EllipsisLit {};
// `lambda x: e`, kept as a function named "<lambda>" whose body is `return e`.
struct Lambda { std::shared_ptr<const FunctionDef> def; };
// One piece of an f-string: literal text, or a replacement field `{value!conversion:spec}`.
struct FStringPiece {
  std::string text;      // the literal text (escapes and doubled braces decoded); value is null
  ExprPtr value;         // the replacement field's expression; null for literal text
  char conversion = 0;   // 'r', 's' or 'a' after `!`; 0 when there is none
  // The format spec after `:` as pieces of its own: Python lets it hold replacement fields
  // (`{x:{width}}`), which cuTile refuses; sema decides. Empty when there is no spec.
  std::vector<FStringPiece> format_spec;
  bool has_format_spec = false;
  SourceRange range;     // the replacement field, braces included
};
// f"..." (implicitly concatenated pieces included): literal text and replacement fields.
struct FString { std::vector<FStringPiece> pieces; };
// `yield v` (`value` may be null): only a @contextlib.contextmanager helper may use it.
struct Yield { ExprPtr value; };
// A construct the front end recognises but tile code cannot use (set, walrus, ...).
struct UnsupportedExpr {
  std::string what;
  std::string assigned_name;  // a walrus's target, named by static_eval's error
};

struct Expr {
  using Kind = std::variant<Name, IntLit, FloatLit, BoolLit, NoneLit, StrLit, Attribute, Slice,
                            Subscript, Starred, Call, Binary, Unary, BoolChain, Compare, IfExp,
                            TupleExpr, ListExpr, DictExpr, EllipsisLit, Lambda, FString, Yield,
                            UnsupportedExpr>;
  Kind kind;
  SourceRange range;
  template <class T> const T* as() const { return std::get_if<T>(&kind); }
};

// ---- statements -----------------------------------------------------------------------

struct Param {
  std::string name;
  ExprPtr annotation;  // may be null
  ExprPtr default_value;  // may be null
  enum class Kind { Normal, VarArgs, KwArgs } kind = Kind::Normal;
  SourceRange range;
};

struct ExprStmt { ExprPtr value; };
struct Assign { std::vector<ExprPtr> targets; ExprPtr value; };  // `a = b = v` has two targets
struct AugAssign { ExprPtr target; BinaryOp op; ExprPtr value; };
struct AnnAssign { ExprPtr target; ExprPtr annotation; ExprPtr value; };  // value may be null
// `if c0: ... elif c1: ... else: ...`: the branches in order, then orelse. Python's ast nests
// each elif in its predecessor's orelse; here the chain stays flat, so that a long elif chain
// (legal Python) costs no recursion in any pass. A branch's range runs from its `if` or
// `elif` to the end of the whole statement.
struct IfBranch { ExprPtr cond; Body body; SourceRange range; };
struct If { std::vector<IfBranch> branches; Body orelse; };
struct For { ExprPtr target; ExprPtr iter; Body body; Body orelse; };
struct While { ExprPtr cond; Body body; Body orelse; };
struct Break {};
struct Continue {};
struct Pass {};
struct Return { ExprPtr value; };  // may be null
struct FunctionDef {
  std::string name;
  std::vector<Param> params;
  std::vector<ExprPtr> decorators;
  Body body;
  SourceRange name_range;
};
// A class statement. Classes at module level are tile-code values (frozen dataclasses and
// enums, spec a.6); sema decides what the decorators and bases make of one.
struct ClassDef {
  std::string name;
  std::vector<ExprPtr> bases;       // `class C(Base, enum.Enum)`
  std::vector<Keyword> keywords;    // `class C(Base, metaclass=M)`
  std::vector<ExprPtr> decorators;
  Body body;
  SourceRange name_range;
};
struct ImportAlias { std::string name; std::string asname; SourceRange range; };  // dotted name
struct Import { std::vector<ImportAlias> names; };
struct ImportFrom { std::string module; int level = 0; std::vector<ImportAlias> names; };
// `with a() as x, b():` — `target` is null where there is no `as`.
struct WithItem { ExprPtr context; ExprPtr target; SourceRange range; };
struct With { std::vector<WithItem> items; Body body; };
struct UnsupportedStmt { std::string what; };  // try, global, ...

struct Stmt {
  using Kind = std::variant<ExprStmt, Assign, AugAssign, AnnAssign, If, For, While, Break,
                            Continue, Pass, Return, FunctionDef, ClassDef, Import, ImportFrom, With,
                            UnsupportedStmt>;
  Kind kind;
  SourceRange range;
  template <class T> const T* as() const { return std::get_if<T>(&kind); }
};

// The front end's form of `[e for x in t]`: a list display whose one item calls a function
// named "<listcomp>" (lower_generator).
inline bool is_list_comprehension(const ListExpr& list) {
  if (list.elts.size() != 1) return false;
  const auto* call = list.elts[0]->as<Call>();
  const auto* fn = call ? call->func->as<Lambda>() : nullptr;
  return fn && fn->def->name == "<listcomp>";
}

struct Module {
  std::shared_ptr<const SourceFile> file;
  Body body;
};

}  // namespace tile2cu::ast
