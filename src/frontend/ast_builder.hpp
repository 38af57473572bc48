// Lowering: tree-sitter's syntax tree, already checked to be Python 3, onto the kernel AST
// (ast.hpp). Constructs outside the tile subset become Unsupported nodes; sema rejects them
// where they matter. Internal to the front end; Lowerer's members are spread over
//   build_stmt.cpp  statements, function definitions, imports, assignment targets;
//   build_expr.cpp  expressions and literals;
//   build_fstring.cpp  f-strings.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontend/ast.hpp"
#include "frontend/syntax_tree.hpp"

namespace tile2cu::frontend_detail {

// Deeper syntax trees are refused: the lowering and every later pass recurse over the AST.
inline constexpr int kMaxNesting = 500;

// The operator a binary operator token stands for (`+=` shares it, without its `=`).
std::optional<ast::BinaryOp> binary_op_from(string_view token);

class Lowerer {
 public:
  explicit Lowerer(const Source& src) : src_(src) {}

  ast::Body lower_body(TSNode container);

 private:
  // RAII depth counter for the recursive descent.
  class Nesting {
   public:
    Nesting(Lowerer& lowerer, TSNode node) : depth_(lowerer.depth_) {
      if (++depth_ > kMaxNesting) lowerer.src_.error(node, "nesting too deep");
    }
    ~Nesting() { --depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;

   private:
    int& depth_;
  };

  template <class T>
  static ast::StmtPtr stmt(T kind, SourceRange range) {
    return std::make_shared<ast::Stmt>(ast::Stmt{std::move(kind), range});
  }
  template <class T>
  static ast::ExprPtr expr(T kind, SourceRange range) {
    return std::make_shared<ast::Expr>(ast::Expr{std::move(kind), range});
  }

  // statements (build_stmt.cpp)
  ast::StmtPtr lower_stmt(TSNode node);
  ast::StmtPtr lower_expression_statement(TSNode node);
  ast::StmtPtr lower_assignment(TSNode node, SourceRange range);
  ast::StmtPtr lower_augmented_assignment(TSNode node, SourceRange range);
  ast::StmtPtr lower_if(TSNode node);
  ast::StmtPtr lower_for(TSNode node);
  ast::StmtPtr lower_while(TSNode node);
  ast::StmtPtr lower_return(TSNode node);
  ast::StmtPtr lower_with(TSNode node);
  ast::StmtPtr lower_function(TSNode node, std::vector<ast::ExprPtr> decorators);
  ast::StmtPtr lower_decorated(TSNode node);
  ast::StmtPtr lower_class(TSNode node, std::vector<ast::ExprPtr> decorators);
  ast::StmtPtr lower_import(TSNode node);
  ast::StmtPtr lower_import_from(TSNode node);
  ast::Body lower_else(TSNode node);
  ast::Param lower_param(TSNode node);
  std::vector<ast::ImportAlias> lower_import_names(TSNode node);
  std::string dotted_name(TSNode node);
  ast::ExprPtr lower_target(TSNode node);
  void check_target(const ast::ExprPtr& target, bool nested);
  void check_single_target(const ast::ExprPtr& target, bool annotated);

  // expressions (build_expr.cpp)
  ast::ExprPtr lower_expr(TSNode node);
  ast::ExprPtr lower_lambda(TSNode node);
  // A generator expression or list comprehension, as the call of a function `function_name`.
  ast::ExprPtr lower_generator(TSNode node, const char* function_name);
  ast::ExprPtr lower_required(TSNode node, string_view field);
  ast::ExprPtr lower_integer(TSNode node);
  ast::ExprPtr lower_float(TSNode node);
  ast::ExprPtr lower_string(TSNode node);

  // f-strings (build_fstring.cpp)
  void append_fstring(std::vector<ast::FStringPiece>& pieces, TSNode string, bool raw,
                      bool& named_escape);
  void append_replacement_field(std::vector<ast::FStringPiece>& pieces, TSNode field, bool raw,
                                bool& named_escape);
  void append_fstring_text(std::vector<ast::FStringPiece>& pieces, size_t begin, size_t end,
                           bool raw, TSNode owner, bool& named_escape);
  ast::ExprPtr lower_sequence(TSNode node, bool is_list);
  ast::ExprPtr lower_parenthesized(TSNode node);
  ast::ExprPtr lower_dict(TSNode node);
  ast::ExprPtr lower_subscript(TSNode node);
  ast::ExprPtr lower_generic_type(TSNode node);
  ast::ExprPtr lower_slice(TSNode node);
  ast::ExprPtr lower_call(TSNode node);
  ast::ExprPtr lower_binary(TSNode node);
  ast::ExprPtr lower_unary(TSNode node);
  ast::ExprPtr lower_boolean(TSNode node);
  ast::ExprPtr lower_comparison(TSNode node);
  ast::ExprPtr lower_conditional(TSNode node);
  ast::ExprPtr lower_index(const std::vector<TSNode>& items, bool trailing_comma, TSNode owner);

  const Source& src_;
  int depth_ = 0;
};

}  // namespace tile2cu::frontend_detail
