// Lowering of statements: control flow, function definitions, imports, and the checks on
// assignment targets that Python's grammar makes but tree-sitter's does not.
#include "frontend/ast_builder.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace tile2cu::frontend_detail {
namespace {

std::string unsupported_statement_name(string_view type, bool is_async) {
  if (type == "global_statement") return "global statement";
  if (type == "nonlocal_statement") return "nonlocal statement";
  if (type == "delete_statement") return "del statement";
  if (type == "raise_statement") return "raise statement";
  if (type == "assert_statement") return "assert statement";
  if (type == "with_statement") return is_async ? "async with statement" : "with statement";
  if (type == "try_statement") return "try/except";
  if (type == "match_statement") return "match statement";
  if (type == "type_alias_statement") return "type alias";
  std::string name(type);
  std::replace(name.begin(), name.end(), '_', ' ');
  return name;
}

}  // namespace

ast::Body Lowerer::lower_body(TSNode container) {
  ast::Body body;
  for (TSNode child : named_children_of(container)) body.push_back(lower_stmt(child));
  return body;
}

ast::StmtPtr Lowerer::lower_stmt(TSNode node) {
  Nesting nesting(*this, node);
  string_view t = type_of(node);
  SourceRange r = src_.range(node);
  if (t == "expression_statement") return lower_expression_statement(node);
  if (t == "pass_statement") return stmt(ast::Pass{}, r);
  if (t == "break_statement") return stmt(ast::Break{}, r);
  if (t == "continue_statement") return stmt(ast::Continue{}, r);
  if (t == "return_statement") return lower_return(node);
  if (t == "if_statement") return lower_if(node);
  if (t == "for_statement") return lower_for(node);
  if (t == "while_statement") return lower_while(node);
  if (t == "function_definition") return lower_function(node, {});
  if (t == "class_definition") return lower_class(node, {});
  if (t == "decorated_definition") return lower_decorated(node);
  if (t == "import_statement") return lower_import(node);
  if (t == "with_statement" && !has_anonymous_child(node, "async")) return lower_with(node);
  if (t == "import_from_statement" || t == "future_import_statement")
    return lower_import_from(node);
  std::string what = unsupported_statement_name(t, has_anonymous_child(node, "async"));
  return stmt(ast::UnsupportedStmt{std::move(what)}, r);
}

ast::StmtPtr Lowerer::lower_expression_statement(TSNode node) {
  SourceRange r = src_.range(node);
  std::vector<TSNode> parts = named_children_of(node);
  if (parts.empty()) src_.error(node, "invalid syntax");
  if (parts.size() == 1) {
    string_view t = type_of(parts[0]);
    if (t == "assignment") return lower_assignment(parts[0], r);
    if (t == "augmented_assignment") return lower_augmented_assignment(parts[0], r);
    return stmt(ast::ExprStmt{lower_expr(parts[0])}, r);
  }
  // `a, b` as a statement: a tuple without parentheses.
  std::vector<ast::ExprPtr> elts;
  for (TSNode part : parts) elts.push_back(lower_expr(part));
  return stmt(ast::ExprStmt{expr(ast::TupleExpr{std::move(elts)}, r)}, r);
}

// `a = b = v` arrives as assignment(a, assignment(b, v)); it becomes one Assign with two
// targets, as in Python's ast.
ast::StmtPtr Lowerer::lower_assignment(TSNode node, SourceRange range) {
  std::vector<ast::ExprPtr> targets;
  TSNode current = node;
  for (;;) {
    auto left = field_of(current, "left");
    auto right = field_of(current, "right");
    if (!left) src_.error(current, "invalid syntax");
    if (auto annotation = field_of(current, "type")) {
      if (!targets.empty() || (right && (is_type(*right, "assignment") ||
                                         is_type(*right, "augmented_assignment"))))
        src_.error(current, "invalid syntax");
      ast::ExprPtr target = lower_expr(*left);
      check_single_target(target, true);
      ast::ExprPtr value = right ? lower_expr(*right) : nullptr;
      return stmt(ast::AnnAssign{target, lower_expr(*annotation), value}, range);
    }
    if (!right) src_.error(current, "invalid syntax");
    targets.push_back(lower_target(*left));
    if (is_type(*right, "assignment") && !field_of(*right, "type")) {
      current = *right;
      continue;
    }
    if (is_type(*right, "assignment") || is_type(*right, "augmented_assignment"))
      src_.error(*right, "invalid syntax");
    return stmt(ast::Assign{std::move(targets), lower_expr(*right)}, range);
  }
}

ast::StmtPtr Lowerer::lower_augmented_assignment(TSNode node, SourceRange range) {
  auto op_node = field_of(node, "operator");
  string_view token = op_node ? src_.text_of(*op_node) : string_view();
  auto op = token.ends_with("=") ? binary_op_from(token.substr(0, token.size() - 1))
                                 : std::nullopt;
  if (!op) src_.error(op_node ? *op_node : node, "invalid syntax");
  ast::ExprPtr target = lower_required(node, "left");
  check_single_target(target, false);
  return stmt(ast::AugAssign{target, *op, lower_required(node, "right")}, range);
}

ast::StmtPtr Lowerer::lower_return(TSNode node) {
  std::vector<TSNode> values = named_children_of(node);
  ast::ExprPtr value = values.empty() ? nullptr : lower_expr(values[0]);
  return stmt(ast::Return{value}, src_.range(node));
}

// `with a() as x, b() as (y, z):` and its parenthesized form `with (a() as x, b()):`.
ast::StmtPtr Lowerer::lower_with(TSNode node) {
  auto body = field_of(node, "body");
  std::optional<TSNode> clause;
  for (TSNode child : named_children_of(node))
    if (is_type(child, "with_clause")) clause = child;
  if (!body || !clause) src_.error(node, "invalid syntax");
  ast::With with;
  for (TSNode item : named_children_of(*clause)) {
    if (!is_type(item, "with_item")) src_.error(item, "invalid syntax");
    auto value = field_of(item, "value");
    if (!value) src_.error(item, "invalid syntax");
    ast::WithItem lowered;
    lowered.range = src_.range(item);
    if (is_type(*value, "as_pattern")) {
      std::vector<TSNode> context = named_children_of(*value);
      auto alias = field_of(*value, "alias");
      if (context.empty() || !alias) src_.error(*value, "invalid syntax");
      std::vector<TSNode> target = named_children_of(*alias);
      if (target.size() != 1) src_.error(*alias, "invalid syntax");
      lowered.context = lower_expr(context[0]);
      lowered.target = lower_target(target[0]);
    } else {
      lowered.context = lower_expr(*value);
    }
    with.items.push_back(std::move(lowered));
  }
  if (with.items.empty()) src_.error(node, "invalid syntax");
  with.body = lower_body(*body);
  return stmt(std::move(with), src_.range(node));
}

// The if and each elif clause become one branch each (flat, see ast::If).
ast::StmtPtr Lowerer::lower_if(TSNode node) {
  ast::If lowered;
  auto add_branch = [&](TSNode clause) {
    ast::ExprPtr cond = lower_required(clause, "condition");
    auto consequence = field_of(clause, "consequence");
    if (!consequence) src_.error(clause, "expected ':'");
    lowered.branches.push_back(
        {cond, lower_body(*consequence), src_.range(src_.begin(clause), src_.end(node))});
  };
  add_branch(node);
  for (TSNode clause : field_children(node, "alternative")) {
    if (is_type(clause, "else_clause")) lowered.orelse = lower_else(clause);
    else add_branch(clause);
  }
  return stmt(std::move(lowered), src_.range(node));
}

ast::Body Lowerer::lower_else(TSNode clause) {
  auto body = field_of(clause, "body");
  if (!body) src_.error(clause, "expected ':'");
  return lower_body(*body);
}

ast::StmtPtr Lowerer::lower_for(TSNode node) {
  SourceRange r = src_.range(node);
  if (has_anonymous_child(node, "async")) return stmt(ast::UnsupportedStmt{"async for"}, r);
  auto left = field_of(node, "left");
  auto body = field_of(node, "body");
  if (!left || !body) src_.error(node, "invalid syntax");
  ast::ExprPtr target = lower_target(*left);
  ast::ExprPtr iter = lower_required(node, "right");
  ast::Body orelse;
  if (auto alternative = field_of(node, "alternative")) orelse = lower_else(*alternative);
  return stmt(ast::For{target, iter, lower_body(*body), std::move(orelse)}, r);
}

ast::StmtPtr Lowerer::lower_while(TSNode node) {
  auto body = field_of(node, "body");
  if (!body) src_.error(node, "expected ':'");
  ast::ExprPtr cond = lower_required(node, "condition");
  ast::Body orelse;
  if (auto alternative = field_of(node, "alternative")) orelse = lower_else(*alternative);
  return stmt(ast::While{cond, lower_body(*body), std::move(orelse)}, src_.range(node));
}

ast::StmtPtr Lowerer::lower_function(TSNode node, std::vector<ast::ExprPtr> decorators) {
  SourceRange r = src_.range(node);
  if (has_anonymous_child(node, "async")) return stmt(ast::UnsupportedStmt{"async function"}, r);
  if (field_of(node, "type_parameters"))
    return stmt(ast::UnsupportedStmt{"generic function (type parameters)"}, r);
  auto name = field_of(node, "name");
  auto parameters = field_of(node, "parameters");
  auto body = field_of(node, "body");
  if (!name || !parameters || !body) src_.error(node, "invalid syntax");
  ast::FunctionDef def;
  def.name = std::string(src_.text_of(*name));
  def.name_range = src_.range(*name);
  def.decorators = std::move(decorators);
  for (TSNode param : named_children_of(*parameters)) {
    string_view t = type_of(param);
    if (t == "keyword_separator" || t == "positional_separator") continue;  // `*` and `/`
    def.params.push_back(lower_param(param));
  }
  def.body = lower_body(*body);
  return stmt(std::move(def), r);
}

ast::Param Lowerer::lower_param(TSNode node) {
  ast::Param param;
  param.range = src_.range(node);
  string_view t = type_of(node);
  auto name = parameter_name(node);
  if (!name) src_.error(node, "invalid syntax");
  param.name = std::string(src_.text_of(*name));
  TSNode kind_node = node;
  if (t == "typed_parameter") {
    kind_node = named_children_of(node)[0];
    param.annotation = lower_required(node, "type");
  } else if (t == "default_parameter") {
    param.default_value = lower_required(node, "value");
  } else if (t == "typed_default_parameter") {
    param.annotation = lower_required(node, "type");
    param.default_value = lower_required(node, "value");
  }
  if (is_type(kind_node, "list_splat_pattern")) param.kind = ast::Param::Kind::VarArgs;
  if (is_type(kind_node, "dictionary_splat_pattern")) param.kind = ast::Param::Kind::KwArgs;
  return param;
}

// Decorated definitions take the `def` line as their position, as Python's ast does.
ast::StmtPtr Lowerer::lower_decorated(TSNode node) {
  std::vector<ast::ExprPtr> decorators;
  for (TSNode child : named_children_of(node)) {
    if (!is_type(child, "decorator")) continue;
    std::vector<TSNode> value = named_children_of(child);
    if (value.empty()) src_.error(child, "invalid syntax");
    decorators.push_back(lower_expr(value[0]));
  }
  auto definition = field_of(node, "definition");
  if (!definition) src_.error(node, "invalid syntax");
  if (is_type(*definition, "function_definition"))
    return lower_function(*definition, std::move(decorators));
  if (is_type(*definition, "class_definition"))
    return lower_class(*definition, std::move(decorators));
  return lower_stmt(*definition);
}

ast::StmtPtr Lowerer::lower_class(TSNode node, std::vector<ast::ExprPtr> decorators) {
  SourceRange r = src_.range(node);
  if (field_of(node, "type_parameters"))
    return stmt(ast::UnsupportedStmt{"generic class (type parameters)"}, r);
  auto name = field_of(node, "name");
  auto body = field_of(node, "body");
  if (!name || !body) src_.error(node, "invalid syntax");
  ast::ClassDef def;
  def.name = std::string(src_.text_of(*name));
  def.name_range = src_.range(*name);
  def.decorators = std::move(decorators);
  if (auto bases = field_of(node, "superclasses")) {
    for (TSNode arg : named_children_of(*bases)) {
      if (is_type(arg, "keyword_argument")) {
        auto key = field_of(arg, "name");
        if (!key) src_.error(arg, "invalid syntax");
        def.keywords.push_back(
            {std::string(src_.text_of(*key)), lower_required(arg, "value"), src_.range(arg)});
      } else {
        def.bases.push_back(lower_expr(arg));  // `*bases` stays a Starred, refused by sema
      }
    }
  }
  def.body = lower_body(*body);
  return stmt(std::move(def), r);
}

// Joined from the identifiers, since Python allows `a . b` and comments between them.
std::string Lowerer::dotted_name(TSNode node) {
  if (is_type(node, "identifier")) return std::string(src_.text_of(node));
  std::string name;
  for (TSNode part : named_children_of(node)) {
    if (!name.empty()) name += '.';
    name += src_.text_of(part);
  }
  return name;
}

std::vector<ast::ImportAlias> Lowerer::lower_import_names(TSNode node) {
  std::vector<ast::ImportAlias> names;
  for (const Child& child : children_of(node)) {
    TSNode n = child.node;
    if (is_type(n, "wildcard_import")) {
      names.push_back({"*", "", src_.range(n)});
    } else if (child.field != "name") {
      continue;
    } else if (is_type(n, "aliased_import")) {
      auto dotted = field_of(n, "name");
      auto alias = field_of(n, "alias");
      if (!dotted || !alias) src_.error(n, "invalid syntax");
      names.push_back({dotted_name(*dotted), std::string(src_.text_of(*alias)), src_.range(n)});
    } else {
      names.push_back({dotted_name(n), "", src_.range(n)});
    }
  }
  return names;
}

ast::StmtPtr Lowerer::lower_import(TSNode node) {
  return stmt(ast::Import{lower_import_names(node)}, src_.range(node));
}

ast::StmtPtr Lowerer::lower_import_from(TSNode node) {
  ast::ImportFrom from;
  if (is_type(node, "future_import_statement")) {
    from.module = "__future__";
  } else if (auto module = field_of(node, "module_name")) {
    if (is_type(*module, "relative_import")) {
      for (TSNode part : named_children_of(*module)) {
        if (is_type(part, "import_prefix")) {
          string_view dots = src_.text_of(part);
          from.level = int(std::count(dots.begin(), dots.end(), '.'));
        } else {
          from.module = dotted_name(part);
        }
      }
    } else {
      from.module = dotted_name(*module);
    }
  }
  from.names = lower_import_names(node);
  return stmt(std::move(from), src_.range(node));
}

// ---- assignment targets ---------------------------------------------------------------------

ast::ExprPtr Lowerer::lower_target(TSNode node) {
  ast::ExprPtr target = lower_expr(node);
  check_target(target, false);
  return target;
}

// Assignment and for-loop targets: names, attributes, subscripts, and (nested) tuples and
// lists of them with at most one starred element each.
void Lowerer::check_target(const ast::ExprPtr& target, bool nested) {
  if (target->as<ast::Name>() || target->as<ast::Attribute>() || target->as<ast::Subscript>())
    return;
  if (const auto* starred = target->as<ast::Starred>()) {
    if (!nested)
      src_.error(target->range, "starred assignment target must be in a list or tuple");
    check_target(starred->value, true);
    return;
  }
  const std::vector<ast::ExprPtr>* elts = nullptr;
  if (const auto* tuple = target->as<ast::TupleExpr>()) elts = &tuple->elts;
  if (const auto* list = target->as<ast::ListExpr>()) elts = &list->elts;
  if (!elts) src_.error(target->range, "cannot assign to expression");
  int starred = 0;
  for (const ast::ExprPtr& elt : *elts) {
    if (elt->as<ast::Starred>() && ++starred > 1)
      src_.error(elt->range, "multiple starred expressions in assignment");
    check_target(elt, true);
  }
}

// Targets of `x += 1` and `x: T = v` must be one name, attribute or subscript.
void Lowerer::check_single_target(const ast::ExprPtr& target, bool annotated) {
  if (target->as<ast::Name>() || target->as<ast::Attribute>() || target->as<ast::Subscript>())
    return;
  std::string what = target->as<ast::TupleExpr>() ? "tuple"
                     : target->as<ast::ListExpr>() ? "list"
                                                   : "expression";
  if (annotated) {
    src_.error(target->range, what == "expression"
                                  ? "illegal target for annotation"
                                  : fmt::format("only single target (not {}) can be annotated",
                                                what));
  }
  src_.error(target->range,
             fmt::format("'{}' is an illegal expression for augmented assignment", what));
}

}  // namespace tile2cu::frontend_detail
