// Where tree-sitter-python's grammar is wider than Python's: argument and parameter lists,
// expressions allowed only in some contexts (`*x`, `:=`, `yield`, `x as y`), and smaller
// leaks (assignment chains, separators, del targets, import lists, type parameters).
#include "frontend/syntax_check.hpp"

#include <algorithm>
#include <initializer_list>
#include <set>
#include <vector>

#include <fmt/format.h>

namespace tile2cu::frontend_detail {
namespace {

enum class ParamShape { Plain, Default, BareStar, VarArgs, KwArgs, Slash, Other };

ParamShape param_shape(TSNode param) {
  string_view t = type_of(param);
  if (t == "typed_parameter") {
    std::vector<TSNode> kids = named_children_of(param);
    if (!kids.empty() && !is_type(kids[0], "identifier")) return param_shape(kids[0]);
    return ParamShape::Plain;
  }
  if (t == "identifier") return ParamShape::Plain;
  if (t == "default_parameter" || t == "typed_default_parameter") return ParamShape::Default;
  if (t == "keyword_separator") return ParamShape::BareStar;
  if (t == "list_splat_pattern") return ParamShape::VarArgs;
  if (t == "dictionary_splat_pattern") return ParamShape::KwArgs;
  if (t == "positional_separator") return ParamShape::Slash;
  return ParamShape::Other;
}

// Where an ancestor of `node` (or the node's parent when `direct_parent_only`) has one of
// `types`.
bool has_ancestor(TSNode node, std::initializer_list<string_view> types,
                  bool direct_parent_only) {
  for (TSNode n = ts_node_parent(node); !ts_node_is_null(n); n = ts_node_parent(n)) {
    if (std::find(types.begin(), types.end(), type_of(n)) != types.end()) return true;
    if (direct_parent_only) return false;
  }
  return false;
}

}  // namespace

void SyntaxChecker::check_arguments(TSNode arguments) const {
  bool seen_keyword = false, seen_keyword_unpacking = false;
  std::set<std::string, std::less<>> names;
  for (TSNode arg : named_children_of(arguments)) {
    string_view t = type_of(arg);
    if (t == "keyword_argument") {
      if (auto name = field_of(arg, "name")) {
        if (!names.insert(std::string(src_.text_of(*name))).second)
          src_.error(*name, fmt::format("keyword argument repeated: {}", src_.text_of(*name)));
      }
      seen_keyword = true;
    } else if (t == "dictionary_splat") {
      seen_keyword_unpacking = true;
    } else if (t == "list_splat" || t == "parenthesized_list_splat") {
      if (seen_keyword_unpacking)
        src_.error(arg, "iterable argument unpacking follows keyword argument unpacking");
    } else if (seen_keyword_unpacking) {
      src_.error(arg, "positional argument follows keyword argument unpacking");
    } else if (seen_keyword) {
      src_.error(arg, "positional argument follows keyword argument");
    }
  }
}

// The ordering rules Python's grammar puts on a parameter list.
void SyntaxChecker::check_parameters(TSNode parameters) const {
  bool seen_default = false, seen_star = false, seen_kwargs = false, seen_slash = false;
  bool star_needs_name = false;
  size_t count = 0;
  std::set<std::string, std::less<>> names;
  for (TSNode param : named_children_of(parameters)) {
    ParamShape shape = param_shape(param);
    if (shape == ParamShape::Other) src_.error(param, "invalid syntax");
    if (seen_kwargs) src_.error(param, "arguments cannot follow var-keyword argument");
    switch (shape) {
      case ParamShape::Slash:
        if (seen_slash) src_.error(param, "/ may appear only once");
        if (seen_star) src_.error(param, "/ must be ahead of *");
        if (count == 0) src_.error(param, "at least one argument must precede /");
        seen_slash = true;
        break;
      case ParamShape::BareStar:
      case ParamShape::VarArgs:
        if (seen_star) src_.error(param, "* argument may appear only once");
        seen_star = true;
        star_needs_name = shape == ParamShape::BareStar;
        break;
      case ParamShape::KwArgs:
        if (star_needs_name) src_.error(param, "named arguments must follow bare *");
        seen_kwargs = true;
        break;
      case ParamShape::Default:
        seen_default = true;
        star_needs_name = false;
        break;
      default:
        if (seen_default && !seen_star)
          src_.error(param, "parameter without a default follows parameter with a default");
        star_needs_name = false;
    }
    ++count;
    if (auto name = parameter_name(param)) {
      if (!names.insert(std::string(src_.text_of(*name))).second)
        src_.error(*name, fmt::format("duplicate argument '{}' in function definition",
                                      src_.text_of(*name)));
    }
  }
  if (star_needs_name) src_.error(parameters, "named arguments must follow bare *");
}

// tree-sitter's expression grammar is wider than Python's: `*x`, `x := y`, `yield x` and
// `x as y` are accepted anywhere an expression is.
void SyntaxChecker::check_expression_context(TSNode n) const {
  if (!ts_node_is_named(n)) return;  // the `yield` keyword token is no yield expression
  string_view t = type_of(n);
  if (t == "list_splat") {
    check_starred(n);
  } else if (t == "parenthesized_list_splat") {
    src_.error(n, "cannot use starred expression here");
  } else if (t == "dictionary_splat") {
    if (!has_ancestor(n, {"argument_list", "dictionary"}, true)) src_.error(n, "invalid syntax");
  } else if (t == "named_expression") {
    // Unparenthesized `:=` only where Python's grammar takes a named_expression.
    if (!has_ancestor(n, {"parenthesized_expression", "if_statement", "elif_clause",
                          "while_statement", "argument_list", "subscript", "if_clause", "list",
                          "set", "tuple", "decorator", "list_comprehension", "set_comprehension",
                          "generator_expression", "match_statement"},
                      true))
      src_.error(n, "invalid syntax");
  } else if (t == "yield") {
    // Unparenthesized `yield` is a whole statement or the right side of an assignment.
    if (!has_ancestor(n, {"expression_statement", "assignment", "augmented_assignment",
                          "parenthesized_expression"},
                      true))
      src_.error(n, "invalid syntax");
  } else if (t == "await") {
    // `await` takes a primary: not `-x`, `not x`, `lambda` or another await.
    std::vector<TSNode> operand = named_children_of(n);
    if (!operand.empty() &&
        (is_type(operand[0], "unary_operator") || is_type(operand[0], "not_operator") ||
         is_type(operand[0], "lambda") || is_type(operand[0], "await")))
      src_.error(n, "invalid syntax");
  } else if (t == "as_pattern") {
    if (!has_ancestor(n, {"with_item", "except_clause", "except_group_clause"}, true) &&
        !has_ancestor(n, {"case_clause"}, false))
      src_.error(n, "invalid syntax");
  }
}

// `*x` belongs in a tuple, list or set display, a call's arguments or a subscript.
void SyntaxChecker::check_starred(TSNode splat) const {
  // tree-sitter binds `*` tighter than binary operators (`*a + b` arrives as (*a) + b);
  // Python stars the whole operand, so the context that counts is above that operand.
  TSNode operand = splat;
  for (TSNode up = ts_node_parent(splat); !ts_node_is_null(up) && is_type(up, "binary_operator");
       up = ts_node_parent(up)) {
    auto left = field_of(up, "left");
    if (!left || !ts_node_eq(*left, operand)) break;
    operand = up;
  }
  TSNode parent = ts_node_parent(operand);
  bool lone_in_parens = is_type(parent, "tuple") && named_children_of(parent).size() == 1 &&
                        !has_anonymous_child(parent, ",");  // `(*a)`
  bool in_tuple_statement = is_type(parent, "expression_statement") &&
                            has_anonymous_child(parent, ",");  // `a, *b` as a statement
  bool in_display = has_ancestor(
      operand, {"tuple", "list", "set", "expression_list", "argument_list", "subscript"}, true);
  if (lone_in_parens || !(in_tuple_statement || in_display))
    src_.error(splat, "cannot use starred expression here");
}

// Smaller places where tree-sitter-python accepts what Python does not.
void SyntaxChecker::check_grammar_leaks(TSNode n) const {
  if (!ts_node_is_named(n)) return;
  string_view t = type_of(n);
  if (t == "constrained_type") {
    check_type_parameter_form(n);
  } else if (t == "splat_type") {
    check_splat_type(n);
  } else if (t == "for_in_clause") {
    check_comprehension_iterable(n);
  } else if (t == "assignment" || t == "augmented_assignment") {
    check_assignment_chain(n);
  } else if (t == "argument_list" || t == "tuple" || t == "list" || t == "set" ||
             t == "dictionary" || t == "expression_list") {
    check_separators(n);
  } else if (t == "delete_statement") {
    check_delete_targets(n);
  } else if (t == "raise_statement") {
    check_raise_from(n);
  } else if (t == "import_statement" || t == "import_from_statement" ||
             t == "future_import_statement") {
    check_import_list(n);
  }
}

// `T: bound` belongs in a def's or class's [type parameters], not in an annotation.
void SyntaxChecker::check_type_parameter_form(TSNode constrained) const {
  TSNode up = ts_node_parent(constrained);
  while (!ts_node_is_null(up) && !is_type(up, "type_parameter")) up = ts_node_parent(up);
  TSNode owner = ts_node_is_null(up) ? up : ts_node_parent(up);
  if (ts_node_is_null(owner) || is_type(owner, "generic_type"))
    src_.error(constrained, "invalid syntax");
}

// `*Ts` annotates only *args, or sits in a def's or class's [type parameters].
void SyntaxChecker::check_splat_type(TSNode splat) const {
  TSNode type = ts_node_parent(splat);
  TSNode owner = ts_node_is_null(type) ? type : ts_node_parent(type);
  bool ok = false;
  if (!ts_node_is_null(owner) && is_type(owner, "typed_parameter")) {
    std::vector<TSNode> kids = named_children_of(owner);
    ok = !kids.empty() && is_type(kids[0], "list_splat_pattern") &&
         has_anonymous_child(splat, "*");
  } else if (!ts_node_is_null(owner) && is_type(owner, "type_parameter")) {
    TSNode def = ts_node_parent(owner);
    ok = !ts_node_is_null(def) && !is_type(def, "generic_type");
  }
  if (!ok) src_.error(splat, "invalid syntax");
}

// The iterable of a comprehension is one expression: `for x in a, b` needs parentheses.
void SyntaxChecker::check_comprehension_iterable(TSNode clause) const {
  bool after_in = false;
  for (const Child& child : children_of(clause)) {
    if (ts_node_is_named(child.node)) continue;
    string_view token = type_of(child.node);
    after_in |= token == "in";
    if (after_in && token == ",") {
      TSNode comprehension = ts_node_parent(clause);
      bool sole_argument = is_type(comprehension, "generator_expression") &&
                           is_type(ts_node_parent(comprehension), "call");
      src_.error(child.node, sole_argument ? "Generator expression must be parenthesized"
                                           : "invalid syntax");
    }
  }
}

// Only `=` chains: no `a += b = c`, `a = b += c`, or `a: T = b = c`.
void SyntaxChecker::check_assignment_chain(TSNode assignment) const {
  auto right = field_of(assignment, "right");
  if (!right || !(is_type(*right, "assignment") || is_type(*right, "augmented_assignment")))
    return;
  bool plain = is_type(assignment, "assignment") && !field_of(assignment, "type");
  if (!plain || is_type(*right, "augmented_assignment")) src_.error(*right, "invalid syntax");
}

// A comma separates items: none may lead or come twice (`f( ,)`, `{,}`).
void SyntaxChecker::check_separators(TSNode sequence) const {
  bool item_before = false;
  for (const Child& child : children_of(sequence)) {
    if (ts_node_is_named(child.node)) {
      item_before = true;
    } else if (type_of(child.node) == ",") {
      if (!item_before) src_.error(child.node, "invalid syntax");
      item_before = false;
    }
  }
}

// `del` takes names, attributes and subscripts, possibly in tuples and lists.
void SyntaxChecker::check_delete_targets(TSNode del) const {
  std::vector<TSNode> targets = named_children_of(del);
  while (!targets.empty()) {
    TSNode target = targets.back();
    targets.pop_back();
    string_view t = type_of(target);
    if (t == "identifier" || t == "attribute" || t == "subscript") continue;
    if (t == "tuple" || t == "list" || t == "expression_list" ||
        t == "parenthesized_expression") {
      for (TSNode inner : named_children_of(target)) targets.push_back(inner);
      continue;
    }
    bool literal = t == "integer" || t == "float" || t == "string" ||
                   t == "concatenated_string" || t == "true" || t == "false" || t == "none" ||
                   t == "ellipsis";
    src_.error(target, literal          ? "cannot delete literal"
                       : t == "call"    ? "cannot delete function call"
                                        : "cannot delete expression");
  }
}

// `raise from y` lacks its exception.
void SyntaxChecker::check_raise_from(TSNode raise) const {
  std::vector<Child> kids = children_of(raise);
  for (size_t i = 1; i < kids.size(); ++i)
    if (!ts_node_is_named(kids[i].node) && type_of(kids[i].node) == "from" &&
        !ts_node_is_named(kids[i - 1].node))
      src_.error(kids[i].node, "invalid syntax");
}

// A trailing comma needs parentheses, and `from m import a.b` is not Python: the names
// imported from a module are plain identifiers.
void SyntaxChecker::check_import_list(TSNode import) const {
  std::vector<Child> kids = children_of(import);
  if (!kids.empty() && type_of(kids.back().node) == "," && !has_anonymous_child(import, "("))
    src_.error(kids.back().node, "trailing comma not allowed without surrounding parentheses");
  if (is_type(import, "import_statement")) return;
  for (const Child& kid : kids) {
    if (kid.field != "name") continue;
    TSNode name = kid.node;
    if (is_type(name, "aliased_import")) name = field_of(name, "name").value_or(name);
    if (named_children_of(name).size() > 1) src_.error(name, "invalid syntax");
  }
}

}  // namespace tile2cu::frontend_detail
