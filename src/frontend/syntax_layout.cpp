// Lines and indentation: where statements, clauses and decorators may start, how deep
// blocks may nest, and that a block's statements line up. tree-sitter's scanner is laxer
// than Python's tokenizer about all of these.
#include "frontend/syntax_check.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

#include <fmt/format.h>

namespace tile2cu::frontend_detail {
namespace {

bool is_compound_statement(string_view type) {
  return type == "if_statement" || type == "for_statement" || type == "while_statement" ||
         type == "try_statement" || type == "with_statement" || type == "function_definition" ||
         type == "class_definition" || type == "decorated_definition" ||
         type == "match_statement";
}

// Whether the text between two tokens (whitespace, comments, continuations) holds a backslash
// continuation. tree-sitter's scanner leaves no line_continuation node for one that a string
// follows (`y = \` then `"x"`): it takes it as whitespace before the string's start.
bool gap_has_continuation(string_view gap) {
  for (size_t i = 0; i < gap.size(); ++i) {
    if (gap[i] == '#') {
      while (i < gap.size() && gap[i] != '\n') ++i;
    } else if (gap[i] == '\\' && i + 1 < gap.size() && (gap[i + 1] == '\n' || gap[i + 1] == '\r')) {
      return true;
    }
  }
  return false;
}

}  // namespace

int indent_width(string_view indent, int tab_size) {
  int width = 0;
  for (char c : indent)
    width = c == '\t' ? (width / tab_size + 1) * tab_size : c == '\f' ? 0 : width + 1;
  return width;
}

// CPython's tokenizer keeps at most 100 indentation levels (module level included);
// tree-sitter has its own, different limit. The levels are those of the lines' first
// tokens outside brackets, as the tokenizer sees them.
void SyntaxChecker::check_indentation_depth(TSNode root) const {
  constexpr size_t kMaxLevels = 100;
  std::vector<int> levels = {0};
  int depth = 0;
  std::optional<uint32_t> previous_row;
  walk_preorder(root, [&](TSNode n) {
    if (ts_node_is_extra(n) && !ts_node_is_error(n)) return Walk::Skip;
    if (!is_type(n, "string") && ts_node_child_count(n) > 0) return Walk::Descend;
    if (ts_node_is_missing(n)) return Walk::Skip;
    uint32_t row = ts_node_start_point(n).row;
    if (depth == 0 && (!previous_row || row > *previous_row)) {
      if (auto indent = src_.indentation_before(src_.begin(n))) {
        int width = indent_width(*indent, 8);
        while (levels.size() > 1 && width < levels.back()) levels.pop_back();
        if (width > levels.back()) levels.push_back(width);
        if (levels.size() > kMaxLevels) src_.error(n, "too many levels of indentation");
      }
    }
    string_view t = ts_node_is_named(n) ? string_view() : type_of(n);
    if (t == "(" || t == "[" || t == "{") ++depth;
    if ((t == ")" || t == "]" || t == "}") && depth > 0) --depth;
    previous_row = ts_node_end_point(n).row;
    return Walk::Skip;
  });
}

// Statements of one block: each on its own logical line (or separated by ';') and all
// starting at the block's indentation. tree-sitter's scanner is lax about both.
//
// With `stop_at`, only the statements wholly before that byte are looked at, and `each`
// runs on every one of them once its own position is checked (see check_before_error, in
// syntax_check.cpp).
void SyntaxChecker::check_statement_sequence(TSNode container, bool is_module,
                                             std::optional<uint32_t> stop_at,
                                             const std::function<void(TSNode)>& each) const {
  std::optional<string_view> expected_indent;
  if (is_module) expected_indent = string_view();
  bool after_semicolon = false;
  std::optional<TSNode> previous;
  for (const Child& child : children_of(container)) {
    TSNode stmt = child.node;
    if (!ts_node_is_named(stmt)) {
      after_semicolon |= type_of(stmt) == ";";
      continue;
    }
    if (stop_at && (ts_node_end_byte(stmt) > *stop_at || ts_node_has_error(stmt))) return;
    if (previous && ts_node_start_point(stmt).row == ts_node_end_point(*previous).row) {
      if (!after_semicolon || is_compound_statement(type_of(stmt)))
        src_.error(stmt, "invalid syntax");
    }
    if (auto indent = src_.indentation_before(src_.begin(stmt))) {
      if (!previous && !is_module) {
        expected_indent = *indent;
      } else if (!expected_indent) {
        src_.error(stmt, "unexpected indent");  // the block began on its header's line
      } else if (*indent != *expected_indent) {
        report_bad_indent(stmt, *indent, *expected_indent, previous);
      }
    }
    if (each) each(stmt);
    previous = stmt;
    after_semicolon = false;
  }
}

// Python's tokenizer compares a line's indentation with the line before it: deeper is an
// unexpected indent, shallower must match an enclosing level. Widths must agree whether a
// tab counts as 8 columns or as 1, or the file mixes tabs and spaces ambiguously.
void SyntaxChecker::report_bad_indent(TSNode stmt, string_view indent, string_view expected,
                                      std::optional<TSNode> previous) const {
  int got8 = indent_width(indent, 8), want8 = indent_width(expected, 8);
  int got1 = indent_width(indent, 1), want1 = indent_width(expected, 1);
  if ((got8 < want8) != (got1 < want1) || (got8 == want8) != (got1 == want1))
    src_.error(stmt, "inconsistent use of tabs and spaces in indentation");
  if (got8 == want8) return;
  int previous_line = previous ? indent_width(src_.line_indentation(src_.end(*previous)), 8) : 0;
  src_.error(stmt, got8 > previous_line ? "unexpected indent"
                                        : "unindent does not match any outer indentation level");
}

// tree-sitter accepts `def f():` followed by an unindented line, with an empty block.
void SyntaxChecker::check_block_not_empty(TSNode block) const {
  if (!named_children_of(block).empty()) return;
  TSNode owner = ts_node_parent(block);
  string_view t = type_of(owner);
  std::string what;
  if (t == "function_definition") what = "function definition";
  else if (t == "class_definition") what = "class definition";
  else if (t.ends_with("_statement")) what = fmt::format("'{}' statement", t.substr(0, t.size() - 10));
  else if (t.ends_with("_clause")) what = fmt::format("'{}' statement", t.substr(0, t.size() - 7));
  std::string message = "expected an indented block";
  if (!what.empty())
    message += fmt::format(" after {} on line {}", what, src_.line_of(src_.begin(owner)));
  // Point at the line that should have been indented, as Python does.
  string_view text = src_.text();
  size_t at = src_.begin(block);
  while (at < text.size()) {
    if (text[at] == '#') {
      at = std::min(text.find('\n', at), text.size());
    } else if (std::isspace(static_cast<unsigned char>(text[at]))) {
      ++at;
    } else {
      break;
    }
  }
  if (at == text.size()) {  // nothing follows: point just past the last text
    while (at > 0 && std::isspace(static_cast<unsigned char>(text[at - 1]))) --at;
    at = std::max(at, src_.begin(block));
  }
  size_t line_end = std::min(text.find_first_of("\r\n", at), text.size());
  src_.error(src_.range(at, line_end), message);
}

void SyntaxChecker::note_clauses(TSNode owner) const {
  const auto owner_indent = src_.indentation_before(src_.begin(owner));
  std::optional<TSNode> before;
  Cursor cursor(owner);
  TSTreeCursor* c = cursor.get();
  if (!ts_tree_cursor_goto_first_child(c)) return;
  do {
    TSNode child = ts_tree_cursor_current_node(c);
    if (string_view(type_of(child)).ends_with("_clause")) clauses_[child.id] = {owner_indent, before};
    before = child;
  } while (ts_tree_cursor_goto_next_sibling(c));
}

// `else:` and friends line up with the statement they belong to.
void SyntaxChecker::check_clause_alignment(TSNode clause) const {
  auto context = clauses_.find(clause.id);
  if (context == clauses_.end()) return;  // not a statement's clause (tree-sitter's error recovery)
  auto clause_indent = src_.indentation_before(src_.begin(clause));
  const auto& owner_indent = context->second.owner_indent;
  if (clause_indent && owner_indent && *clause_indent != *owner_indent)
    report_bad_indent(ts_node_child(clause, 0), *clause_indent, *owner_indent, context->second.before);
}

// Decorators and the definition they decorate share one indentation.
void SyntaxChecker::check_decorator_alignment(TSNode decorated) const {
  auto owner_indent = src_.indentation_before(src_.begin(decorated));
  if (!owner_indent) return;
  std::optional<TSNode> previous;
  for (TSNode part : named_children_of(decorated)) {
    auto indent = src_.indentation_before(src_.begin(part));
    if (indent && *indent != *owner_indent) report_bad_indent(part, *indent, *owner_indent, previous);
    previous = part;
  }
}

// Outside brackets, a line break ends a statement: tree-sitter's scanner sometimes lets
// one through elsewhere (`else` / `:` on two lines, `import a as` / `b`). Every token that
// starts a line at bracket depth 0 must therefore start a statement, clause or decorator.
void SyntaxChecker::check_logical_lines(TSNode root, bool whole_file) const {
  std::set<uint32_t> line_starters = {ts_node_start_byte(root)};
  walk_preorder(root, [&](TSNode n) {
    string_view t = type_of(n);
    if (t == "module" || t == "block") {
      for (TSNode stmt : named_children_of(n)) line_starters.insert(ts_node_start_byte(stmt));
    } else if (t == "function_definition" || t == "class_definition" || t == "decorator" ||
               t == "elif_clause" || t == "else_clause" || t == "except_clause" ||
               t == "except_group_clause" || t == "finally_clause" || t == "case_clause") {
      line_starters.insert(ts_node_start_byte(n));
    }
    return Walk::Descend;
  });
  int depth = 0;
  bool continued = false;
  std::optional<TSNode> previous;
  walk_preorder(root, [&](TSNode n) {
    if (ts_node_is_extra(n)) {
      continued |= is_type(n, "line_continuation");
      return Walk::Skip;
    }
    if (!is_type(n, "string") && ts_node_child_count(n) > 0) return Walk::Descend;
    if (previous && depth == 0 && !continued &&
        ts_node_start_point(n).row > ts_node_end_point(*previous).row &&
        !line_starters.contains(ts_node_start_byte(n)) &&
        !gap_has_continuation(src_.text().substr(src_.end(*previous), src_.begin(n) - src_.end(*previous)))) {
      size_t at = src_.end(*previous);
      src_.error(src_.range(at, at), is_type(n, ":") ? "expected ':'" : "invalid syntax");
    }
    string_view t = ts_node_is_named(n) ? string_view() : type_of(n);
    if (t == "(" || t == "[" || t == "{") ++depth;
    if ((t == ")" || t == "]" || t == "}") && depth > 0) --depth;
    previous = n;
    continued = false;
    return Walk::Skip;
  });
  if (whole_file) check_trailing_continuation(root);
}

// A backslash continuation with nothing after it, which tree-sitter takes as whitespace.
void SyntaxChecker::check_trailing_continuation(TSNode root) const {
  std::optional<TSNode> last;
  walk_preorder(root, [&](TSNode n) {
    if (is_type(n, "line_continuation")) last = n;
    return Walk::Descend;
  });
  if (!last) return;
  string_view rest = src_.text().substr(src_.end(*last));
  if (rest.find_first_not_of(" \t\f\r\n") != string_view::npos) return;
  size_t after_backslash = src_.begin(*last) + 1;
  src_.error(src_.range(after_backslash, after_backslash), "unexpected EOF while parsing");
}

}  // namespace tile2cu::frontend_detail
