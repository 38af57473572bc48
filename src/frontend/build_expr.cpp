// Lowering of expressions, literals included. Parentheses only group, and chains that
// tree-sitter nests (`a and b and c`, `a < b < c`) become one node, as in Python's ast.
#include "frontend/ast_builder.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include <fmt/format.h>

#include "frontend/literals.hpp"

namespace tile2cu::frontend_detail {

std::optional<ast::BinaryOp> binary_op_from(string_view token) {
  using B = ast::BinaryOp;
  static constexpr std::array<std::pair<string_view, B>, 13> kOps = {{
      {"+", B::Add}, {"-", B::Sub}, {"*", B::Mul}, {"/", B::Div}, {"//", B::FloorDiv},
      {"%", B::Mod}, {"**", B::Pow}, {"@", B::MatMul}, {"&", B::BitAnd}, {"|", B::BitOr},
      {"^", B::BitXor}, {"<<", B::LShift}, {">>", B::RShift}}};
  for (auto [text, op] : kOps)
    if (text == token) return op;
  return std::nullopt;
}

namespace {

std::optional<ast::CompareOp> compare_op_from(string_view token) {
  using C = ast::CompareOp;
  static constexpr std::array<std::pair<string_view, C>, 10> kOps = {{
      {"<", C::Lt}, {"<=", C::Le}, {">", C::Gt}, {">=", C::Ge}, {"==", C::Eq},
      {"!=", C::NotEq}, {"is", C::Is}, {"is not", C::IsNot}, {"in", C::In},
      {"not in", C::NotIn}}};
  for (auto [text, op] : kOps)
    if (text == token) return op;
  return std::nullopt;
}

std::string unsupported_expression_name(string_view type) {
  if (type == "lambda") return "lambda";
  if (type == "dictionary") return "dict display";
  if (type == "set") return "set display";
  if (type == "list_comprehension") return "list comprehension";
  if (type == "dictionary_comprehension") return "dict comprehension";
  if (type == "set_comprehension") return "set comprehension";
  if (type == "generator_expression") return "generator expression";
  if (type == "named_expression") return "walrus operator";
  if (type == "await") return "await";
  if (type == "dictionary_splat") return "** unpacking";
  std::string name(type);
  std::replace(name.begin(), name.end(), '_', ' ');
  return name;
}

}  // namespace

ast::ExprPtr Lowerer::lower_required(TSNode node, string_view field) {
  auto child = field_of(node, field);
  if (!child) src_.error(node, "invalid syntax");
  return lower_expr(*child);
}

ast::ExprPtr Lowerer::lower_expr(TSNode node) {
  Nesting nesting(*this, node);
  string_view t = type_of(node);
  SourceRange r = src_.range(node);
  if (t == "identifier") return expr(ast::Name{std::string(src_.text_of(node))}, r);
  if (t == "integer") return lower_integer(node);
  if (t == "float") return lower_float(node);
  if (t == "string" || t == "concatenated_string") return lower_string(node);
  if (t == "true") return expr(ast::BoolLit{true}, r);
  if (t == "false") return expr(ast::BoolLit{false}, r);
  if (t == "none") return expr(ast::NoneLit{}, r);
  if (t == "ellipsis") return expr(ast::EllipsisLit{}, r);
  if (t == "attribute") {
    auto attr = field_of(node, "attribute");
    if (!attr) src_.error(node, "invalid syntax");
    return expr(ast::Attribute{lower_required(node, "object"), std::string(src_.text_of(*attr))},
                r);
  }
  if (t == "subscript") return lower_subscript(node);
  if (t == "slice") return lower_slice(node);
  if (t == "call") return lower_call(node);
  if (t == "binary_operator") return lower_binary(node);
  if (t == "unary_operator" || t == "not_operator") return lower_unary(node);
  if (t == "boolean_operator") return lower_boolean(node);
  if (t == "comparison_operator") return lower_comparison(node);
  if (t == "conditional_expression") return lower_conditional(node);
  if (t == "parenthesized_expression") return lower_parenthesized(node);
  if (t == "tuple" || t == "expression_list" || t == "pattern_list" || t == "tuple_pattern")
    return lower_sequence(node, false);
  if (t == "list" || t == "list_pattern") return lower_sequence(node, true);
  if (t == "dictionary") return lower_dict(node);
  if (t == "list_splat" || t == "list_splat_pattern") {
    std::vector<TSNode> value = named_children_of(node);
    if (value.size() != 1) src_.error(node, "invalid syntax");
    return expr(ast::Starred{lower_expr(value[0])}, r);
  }
  // Annotations arrive wrapped in `type` nodes, and a few type forms have their own nodes.
  if (t == "type") {
    std::vector<TSNode> inner = named_children_of(node);
    if (inner.size() != 1) src_.error(node, "invalid syntax");
    return lower_expr(inner[0]);
  }
  if (t == "generic_type") return lower_generic_type(node);
  if (t == "member_type") {
    std::vector<TSNode> parts = named_children_of(node);
    if (parts.size() != 2) src_.error(node, "invalid syntax");
    return expr(ast::Attribute{lower_expr(parts[0]), std::string(src_.text_of(parts[1]))}, r);
  }
  if (t == "union_type") {
    std::vector<TSNode> parts = named_children_of(node);
    if (parts.size() != 2) src_.error(node, "invalid syntax");
    return expr(ast::Binary{ast::BinaryOp::BitOr, lower_expr(parts[0]), lower_expr(parts[1])}, r);
  }
  if (t == "splat_type" && has_anonymous_child(node, "*")) {
    std::vector<TSNode> value = named_children_of(node);
    if (value.size() != 1) src_.error(node, "invalid syntax");
    return expr(ast::Starred{lower_expr(value[0])}, r);
  }
  if (t == "lambda") return lower_lambda(node);
  if (t == "generator_expression") return lower_generator(node, "<genexpr>");
  // `[e for x in t]`: a list display whose one item is its generator's call, as Python names
  // that function "<listcomp>"; sema runs it inside static_eval (host Python) and refuses it
  // elsewhere, as cuTile does.
  if (t == "list_comprehension")
    return expr(ast::ListExpr{{lower_generator(node, "<listcomp>")}}, r);
  // cuTile refuses `:=`; inside static_eval it names the local variable it would modify.
  if (t == "named_expression") {
    auto target = field_of(node, "name");
    return expr(ast::UnsupportedExpr{unsupported_expression_name(t),
                                     target ? std::string(src_.text_of(*target)) : std::string()},
                r);
  }
  if (t == "yield") {
    std::vector<TSNode> value = named_children_of(node);
    if (value.size() > 1 || has_anonymous_child(node, "from"))
      return expr(ast::UnsupportedExpr{"yield from"}, r);
    return expr(ast::Yield{value.empty() ? nullptr : lower_expr(value[0])}, r);
  }
  return expr(ast::UnsupportedExpr{unsupported_expression_name(t)}, r);
}

// ---- literals -------------------------------------------------------------------------------

ast::ExprPtr Lowerer::lower_integer(TSNode node) {
  string_view text = src_.text_of(node);
  SourceRange r = src_.range(node);
  if (is_imaginary(text)) return expr(ast::UnsupportedExpr{"complex literal"}, r);
  auto value = int_literal_value(text);
  if (!value)
    src_.error(r, fmt::format("integer literal {} does not fit in 128 bits", text),
               ErrorKind::Value);
  return expr(ast::IntLit{*value}, r);
}

ast::ExprPtr Lowerer::lower_float(TSNode node) {
  string_view text = src_.text_of(node);
  SourceRange r = src_.range(node);
  if (is_imaginary(text)) return expr(ast::UnsupportedExpr{"complex literal"}, r);
  return expr(ast::FloatLit{float_literal_value(text)}, r);
}

// One node for "a" 'b' """c""": the pieces are decoded and joined. With an f"..." among them
// the whole is one FString (build_fstring.cpp). Bytes are outside the tile subset; mixing bytes
// with str is a syntax error in Python.
ast::ExprPtr Lowerer::lower_string(TSNode node) {
  SourceRange r = src_.range(node);
  std::vector<TSNode> strings =
      is_type(node, "concatenated_string") ? named_children_of(node) : std::vector{node};
  std::vector<ast::FStringPiece> pieces;
  bool any_bytes = false, any_str = false, any_format = false, named_escape = false;
  for (TSNode string : strings) {
    std::vector<Child> parts = children_of(string);
    if (parts.size() < 2 || !is_type(parts.front().node, "string_start") ||
        !is_type(parts.back().node, "string_end"))
      src_.error(string, "invalid syntax");
    string_view start = src_.text_of(parts.front().node);
    StringPrefix prefix = parse_string_prefix(start.substr(0, start.find_first_of("'\"")));
    (prefix.bytes ? any_bytes : any_str) = true;
    any_format |= prefix.format;
    if (prefix.format) {
      append_fstring(pieces, string, prefix.raw, named_escape);
      continue;
    }
    size_t body_begin = src_.end(parts.front().node);
    size_t body_end = src_.begin(parts.back().node);
    std::string body = normalize_newlines(src_.text().substr(body_begin, body_end - body_begin));
    if (!prefix.raw && !prefix.bytes) {
      DecodedString decoded = decode_escapes(body);
      if (!decoded.error.empty()) src_.error(string, decoded.error);
      named_escape |= decoded.named_escape;
      body = std::move(decoded.value);
    }
    if (!pieces.empty() && !pieces.back().value) {
      pieces.back().text += body;
    } else {
      pieces.emplace_back();
      pieces.back().text = std::move(body);
    }
  }
  if (any_bytes && any_str) src_.error(r, "cannot mix bytes and nonbytes literals");
  if (any_bytes) return expr(ast::UnsupportedExpr{"bytes literal"}, r);
  if (named_escape) return expr(ast::UnsupportedExpr{"\\N{...} escape in string"}, r);
  if (any_format) return expr(ast::FString{std::move(pieces)}, r);
  return expr(ast::StrLit{pieces.empty() ? std::string() : std::move(pieces[0].text)}, r);
}

// ---- displays, subscripts and calls ---------------------------------------------------------

// Tuples, lists and their target forms. `(a)` as a target is a parenthesized name, not a
// tuple: tree-sitter calls it a tuple_pattern, so a pattern needs its comma to be a tuple.
ast::ExprPtr Lowerer::lower_sequence(TSNode node, bool is_list) {
  std::vector<TSNode> items = named_children_of(node);
  if (is_type(node, "tuple_pattern") && items.size() == 1 && !has_anonymous_child(node, ","))
    return lower_expr(items[0]);
  std::vector<ast::ExprPtr> elts;
  for (TSNode item : items) elts.push_back(lower_expr(item));
  SourceRange r = src_.range(node);
  if (is_list) return expr(ast::ListExpr{std::move(elts)}, r);
  return expr(ast::TupleExpr{std::move(elts)}, r);
}

// `{k: v, **d}`: pairs and splats in order (later keys replace earlier ones when evaluated).
ast::ExprPtr Lowerer::lower_dict(TSNode node) {
  ast::DictExpr dict;
  for (TSNode item : named_children_of(node)) {
    string_view t = type_of(item);
    if (t == "pair") {
      dict.items.push_back({lower_required(item, "key"), lower_required(item, "value")});
    } else if (t == "dictionary_splat") {
      std::vector<TSNode> value = named_children_of(item);
      if (value.size() != 1) src_.error(item, "invalid syntax");
      dict.items.push_back({nullptr, lower_expr(value[0])});
    } else if (t != "comment") {
      src_.error(item, "invalid syntax");
    }
  }
  return expr(std::move(dict), src_.range(node));
}

// Parentheses only group: the inner node keeps its own range, as in Python's ast.
ast::ExprPtr Lowerer::lower_parenthesized(TSNode node) {
  std::vector<TSNode> inner = named_children_of(node);
  if (inner.size() != 1) src_.error(node, "invalid syntax");
  if (is_type(inner[0], "list_splat")) src_.error(inner[0], "cannot use starred expression here");
  return lower_expr(inner[0]);
}

ast::ExprPtr Lowerer::lower_index(const std::vector<TSNode>& items, bool trailing_comma,
                                  TSNode owner) {
  if (items.empty()) src_.error(owner, "invalid syntax");
  if (items.size() == 1 && !trailing_comma) return lower_expr(items[0]);
  std::vector<ast::ExprPtr> elts;
  for (TSNode item : items) elts.push_back(lower_expr(item));
  return expr(ast::TupleExpr{std::move(elts)}, src_.span(items.front(), items.back()));
}

// `t[a, b]` indexes with the tuple (a, b); `t[a,]` with a one-element tuple.
ast::ExprPtr Lowerer::lower_subscript(TSNode node) {
  ast::ExprPtr value = lower_required(node, "value");
  std::vector<TSNode> items = field_children(node, "subscript");
  bool trailing_comma = has_anonymous_child(node, ",");
  return expr(ast::Subscript{value, lower_index(items, trailing_comma, node)}, src_.range(node));
}

// `list[int]` in an annotation: tree-sitter's generic_type(identifier, type_parameter).
ast::ExprPtr Lowerer::lower_generic_type(TSNode node) {
  std::vector<TSNode> parts = named_children_of(node);
  if (parts.size() != 2 || !is_type(parts[1], "type_parameter")) src_.error(node, "invalid syntax");
  std::vector<TSNode> items = named_children_of(parts[1]);
  bool trailing_comma = has_anonymous_child(parts[1], ",");
  ast::ExprPtr index = lower_index(items, trailing_comma && items.size() == 1, parts[1]);
  return expr(ast::Subscript{lower_expr(parts[0]), index}, src_.range(node));
}

ast::ExprPtr Lowerer::lower_slice(TSNode node) {
  std::array<ast::ExprPtr, 3> parts;  // lower, upper, step
  size_t index = 0;
  for (const Child& child : children_of(node)) {
    if (!ts_node_is_named(child.node)) {
      if (type_of(child.node) == ":" && ++index > 2) src_.error(child.node, "invalid syntax");
      continue;
    }
    parts[index] = lower_expr(child.node);
  }
  return expr(ast::Slice{parts[0], parts[1], parts[2]}, src_.range(node));
}

ast::ExprPtr Lowerer::lower_call(TSNode node) {
  ast::Call call;
  call.func = lower_required(node, "function");
  auto arguments = field_of(node, "arguments");
  if (!arguments) src_.error(node, "invalid syntax");
  if (is_type(*arguments, "generator_expression")) {
    call.args.push_back(lower_expr(*arguments));  // f(x for x in y): see lower_generator
    return expr(std::move(call), src_.range(node));
  }
  for (TSNode arg : named_children_of(*arguments)) {
    string_view t = type_of(arg);
    if (t == "keyword_argument") {
      auto name = field_of(arg, "name");
      if (!name) src_.error(arg, "invalid syntax");
      call.keywords.push_back(
          {std::string(src_.text_of(*name)), lower_required(arg, "value"), src_.range(arg)});
    } else if (t == "dictionary_splat") {
      std::vector<TSNode> value = named_children_of(arg);
      if (value.size() != 1) src_.error(arg, "invalid syntax");
      call.keywords.push_back({"", lower_expr(value[0]), src_.range(arg)});
    } else {
      call.args.push_back(lower_expr(arg));
    }
  }
  return expr(std::move(call), src_.range(node));
}

// ---- operators ------------------------------------------------------------------------------

// `*a + b` arrives as (*a) + b, since tree-sitter binds `*` tighter than binary
// operators; Python reads it as *(a + b), so the star moves to the top of the operand.
ast::ExprPtr Lowerer::lower_binary(TSNode node) {
  auto op_node = field_of(node, "operator");
  auto op = op_node ? binary_op_from(src_.text_of(*op_node)) : std::nullopt;
  if (!op) src_.error(op_node ? *op_node : node, "invalid syntax");
  ast::ExprPtr lhs = lower_required(node, "left");
  ast::ExprPtr rhs = lower_required(node, "right");
  SourceRange r = src_.range(node);
  if (const auto* starred = lhs->as<ast::Starred>()) {
    SourceRange inner{starred->value->range.line, starred->value->range.col, r.end_line,
                      r.end_col};
    return expr(ast::Starred{expr(ast::Binary{*op, starred->value, rhs}, inner)}, r);
  }
  return expr(ast::Binary{*op, lhs, rhs}, r);
}

ast::ExprPtr Lowerer::lower_unary(TSNode node) {
  ast::ExprPtr operand = lower_required(node, "argument");
  if (is_type(node, "not_operator"))
    return expr(ast::Unary{ast::UnaryOp::Not, operand}, src_.range(node));
  auto op_node = field_of(node, "operator");
  string_view token = op_node ? src_.text_of(*op_node) : string_view();
  ast::UnaryOp op;
  if (token == "-") op = ast::UnaryOp::Neg;
  else if (token == "+") op = ast::UnaryOp::Pos;
  else if (token == "~") op = ast::UnaryOp::Invert;
  else src_.error(node, "invalid syntax");
  return expr(ast::Unary{op, operand}, src_.range(node));
}

// `a and b and c` is one BoolChain with three values, as in Python's ast; tree-sitter nests
// it to the left. Parenthesized groups stay separate chains.
ast::ExprPtr Lowerer::lower_boolean(TSNode node) {
  auto op_of = [&](TSNode n) {
    auto op = field_of(n, "operator");
    return op ? src_.text_of(*op) : string_view();
  };
  string_view token = op_of(node);
  if (token != "and" && token != "or") src_.error(node, "invalid syntax");
  std::vector<TSNode> rights;
  TSNode leftmost = node;
  for (;;) {
    auto right = field_of(leftmost, "right");
    auto left = field_of(leftmost, "left");
    if (!right || !left) src_.error(leftmost, "invalid syntax");
    rights.push_back(*right);
    leftmost = *left;
    if (!is_type(leftmost, "boolean_operator") || op_of(leftmost) != token) break;
  }
  std::vector<ast::ExprPtr> values{lower_expr(leftmost)};
  for (auto it = rights.rbegin(); it != rights.rend(); ++it) values.push_back(lower_expr(*it));
  ast::BoolOp op = token == "and" ? ast::BoolOp::And : ast::BoolOp::Or;
  return expr(ast::BoolChain{op, std::move(values)}, src_.range(node));
}

ast::ExprPtr Lowerer::lower_comparison(TSNode node) {
  ast::Compare compare;
  for (const Child& child : children_of(node)) {
    if (child.field == "operators") {
      std::string token;  // "is not" and "not in" arrive as two words, maybe far apart
      for (const Child& word : children_of(child.node)) {
        if (!token.empty()) token += ' ';
        token += src_.text_of(word.node);
      }
      if (token.empty()) token = src_.text_of(child.node);
      auto op = compare_op_from(token);
      if (!op) src_.error(child.node, "invalid syntax");
      compare.ops.push_back(*op);
    } else if (ts_node_is_named(child.node)) {
      ast::ExprPtr operand = lower_expr(child.node);
      if (compare.left) compare.rights.push_back(operand);
      else compare.left = operand;
    }
  }
  if (!compare.left || compare.ops.empty() || compare.ops.size() != compare.rights.size())
    src_.error(node, "invalid syntax");
  return expr(std::move(compare), src_.range(node));
}

ast::ExprPtr Lowerer::lower_conditional(TSNode node) {
  std::vector<TSNode> parts = named_children_of(node);  // then, condition, else
  if (parts.size() != 3) src_.error(node, "invalid syntax");
  ast::ExprPtr then_value = lower_expr(parts[0]);
  ast::ExprPtr cond = lower_expr(parts[1]);
  return expr(ast::IfExp{cond, then_value, lower_expr(parts[2])}, src_.range(node));
}

}  // namespace tile2cu::frontend_detail

namespace tile2cu::frontend_detail {

// `lambda a, b=1: e` becomes a function "<lambda>" with those parameters and body `return e`.
ast::ExprPtr Lowerer::lower_lambda(TSNode node) {
  SourceRange r = src_.range(node);
  auto body = field_of(node, "body");
  if (!body) src_.error(node, "invalid syntax");
  auto def = std::make_shared<ast::FunctionDef>();
  def->name = "<lambda>";
  def->name_range = r;
  if (auto parameters = field_of(node, "parameters")) {
    for (TSNode param : named_children_of(*parameters)) {
      string_view t = type_of(param);
      if (t == "keyword_separator" || t == "positional_separator") continue;
      def->params.push_back(lower_param(param));
    }
  }
  ast::ExprPtr value = lower_expr(*body);
  def->body.push_back(stmt(ast::Return{value}, value->range));
  return expr(ast::Lambda{std::move(def)}, r);
}

// A generator expression, which cuTile unrolls at compile time into a tuple (its loops are
// ct.static_iter ones), becomes what Python scopes it as: a call of a function "<genexpr>"
// whose parameter ".0" takes the first iterable, evaluated outside (with ct.static_eval, for
// a ct.static_iter one), and whose body collects
// the elements. `tuple(e for t1 in ct.static_iter(i1) if c for t2 in ct.static_iter(i2))`:
//     def <genexpr>(.0):
//         <genexpr result> = ()
//         for t1 in ct.static_iter(.0):
//             if c:
//                 for t2 in ct.static_iter(i2):
//                     <genexpr result> = <genexpr result> + (e,)
//         return <genexpr result>
// The loop variables stay local to it and lambdas made in it see their final values, as in Python.
ast::ExprPtr Lowerer::lower_generator(TSNode node, const char* function_name) {
  SourceRange r = src_.range(node);
  auto body = field_of(node, "body");
  if (!body) src_.error(node, "invalid syntax");
  ast::ExprPtr element = lower_expr(*body);
  struct Clause { ast::ExprPtr target, iter, cond; SourceRange range; };
  std::vector<Clause> clauses;
  for (TSNode child : named_children_of(node)) {
    string_view t = type_of(child);
    if (t == "for_in_clause") {
      if (has_anonymous_child(child, "async")) return expr(ast::UnsupportedExpr{"async generator expression"}, r);
      auto left = field_of(child, "left");
      if (!left) src_.error(child, "invalid syntax");
      clauses.push_back({lower_target(*left), lower_required(child, "right"), nullptr, src_.range(child)});
    } else if (t == "if_clause") {
      std::vector<TSNode> cond = named_children_of(child);
      if (cond.size() != 1) src_.error(child, "invalid syntax");
      clauses.push_back({nullptr, nullptr, lower_expr(cond[0]), src_.range(child)});
    }
  }
  if (clauses.empty() || !clauses[0].iter) src_.error(node, "invalid syntax");
  const std::string result = "<genexpr result>", first = ".0";
  auto name = [&](const std::string& id, SourceRange at) { return expr(ast::Name{id}, at); };
  SourceRange at = element->range;
  ast::Body inner;
  inner.push_back(stmt(ast::Assign{{name(result, at)},
                                   expr(ast::Binary{ast::BinaryOp::Add, name(result, at),
                                                    expr(ast::TupleExpr{{element}}, at)}, at)}, at));
  ast::ExprPtr first_iterable;
  for (size_t k = clauses.size(); k-- > 0;) {
    Clause& c = clauses[k];
    if (c.cond) {
      ast::If test;
      test.branches.push_back({c.cond, std::move(inner), c.range});
      inner = {stmt(std::move(test), c.range)};
      continue;
    }
    ast::ExprPtr iter = c.iter;
    if (k == 0) {  // ct.static_iter(i1): i1 is evaluated outside, the static_iter stays inside
      const auto* call = iter->as<ast::Call>();
      if (call && call->args.size() == 1 && call->keywords.empty() && !call->args[0]->as<ast::Starred>()) {
        // Outside, i1 is evaluated at compile time as static_iter would: ct.static_eval(i1).
        first_iterable = call->args[0];
        if (const auto* attr = call->func->as<ast::Attribute>(); attr && attr->attr == "static_iter")
          first_iterable = expr(ast::Call{expr(ast::Attribute{attr->value, "static_eval"}, call->func->range),
                                          {call->args[0]}, {}},
                                call->args[0]->range);
        iter = expr(ast::Call{call->func, {name(first, call->args[0]->range)}, {}}, iter->range);
      } else {
        first_iterable = iter;
        iter = name(first, iter->range);
      }
    }
    inner = {stmt(ast::For{c.target, iter, std::move(inner), {}}, c.range)};
  }
  auto def = std::make_shared<ast::FunctionDef>();
  def->name = function_name;
  def->name_range = r;
  ast::Param param;
  param.name = first;
  param.range = first_iterable->range;
  def->params.push_back(std::move(param));
  def->body.push_back(stmt(ast::Assign{{name(result, r)}, expr(ast::TupleExpr{}, r)}, r));
  for (auto& s : inner) def->body.push_back(s);
  def->body.push_back(stmt(ast::Return{name(result, r)}, r));
  return expr(ast::Call{expr(ast::Lambda{std::move(def)}, r), {first_iterable}, {}}, r);
}

}  // namespace tile2cu::frontend_detail
