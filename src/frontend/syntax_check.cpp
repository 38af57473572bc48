// SyntaxChecker's entry points and the checks of single tokens. The other checks live in
// syntax_errors.cpp, syntax_layout.cpp and syntax_grammar.cpp (see syntax_check.hpp).
#include "frontend/syntax_check.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include <fmt/format.h>

#include "frontend/literals.hpp"

namespace tile2cu::frontend_detail {
namespace {

// Python 3's hard keywords. tree-sitter-python lexes them as identifiers in some places
// (`else: pass` parses as an annotated assignment), so names are checked against this list.
bool is_reserved_word(string_view word) {
  static constexpr std::array<string_view, 35> kWords = {
      "False", "None",   "True",    "and",      "as",     "assert", "async",
      "await", "break",  "class",   "continue", "def",    "del",    "elif",
      "else",  "except", "finally", "for",      "from",   "global", "if",
      "import", "in",    "is",      "lambda",   "nonlocal", "not",  "or",
      "pass",  "raise",  "return",  "try",      "while",  "with",   "yield"};
  return std::find(kWords.begin(), kWords.end(), word) != kWords.end();
}

}  // namespace

// Tokens first, then structure: Python's tokenizer rejects `1__0` before its parser could
// complain that `1_` and `_0` share a line.
void SyntaxChecker::check(TSNode root) const {
  check_indentation_depth(root);
  check_indentation_width();
  check_subtree(root, true);
}

void SyntaxChecker::check_subtree(TSNode node, bool whole_file) const {
  walk_preorder(node, [&](TSNode n) {
    check_token(n);
    return Walk::Descend;
  });
  walk_preorder(node, [&](TSNode n) {
    check_structure(n);
    return Walk::Descend;
  });
  check_logical_lines(node, whole_file);
}

// Python stops at the first problem in the text. Before tree-sitter's first error there
// may be one only these checks see (a bad indent, a malformed number), so the clean
// statements in front of the error are checked first, down into the block that holds it.
void SyntaxChecker::check_before_error(TSNode root, TSNode error) const {
  uint32_t error_start = ts_node_start_byte(error);
  std::optional<TSNode> container = root;
  while (container) {
    check_statement_sequence(*container, is_type(*container, "module"), error_start,
                             [&](TSNode stmt) { check_subtree(stmt, false); });
    // Go on inside the next block down that holds the error, if any.
    std::optional<TSNode> inner;
    walk_preorder(*container, [&](TSNode n) {
      if (ts_node_end_byte(n) <= error_start || ts_node_start_byte(n) > error_start)
        return Walk::Skip;
      if (is_type(n, "block") && !ts_node_eq(n, *container)) {
        inner = n;
        return Walk::Stop;
      }
      return Walk::Descend;
    });
    container = inner;
  }
}

void SyntaxChecker::check_token(TSNode n) const {
  string_view t = type_of(n);
  if (t == "identifier") {
    check_identifier(n);
  } else if (t == "integer" || t == "float") {
    string_view literal = src_.text_of(n);
    if (auto problem = number_literal_problem(literal, t == "float")) src_.error(n, *problem);
    if (auto problem = number_end_problem(literal, t == "float", src_.text().substr(src_.end(n))))
      src_.error(n, *problem);
  } else if (t == "string_start") {
    check_string_start(n);
  } else if (t == "string") {
    check_single_line_string(n);
  } else if (t == "<>" && !ts_node_is_named(n)) {
    src_.error(n, "invalid syntax");
  }
}

void SyntaxChecker::check_structure(TSNode n) const {
  string_view t = type_of(n);
  if (t == "print_statement") {
    src_.error(n, "Missing parentheses in call to 'print'. Did you mean print(...)?");
  } else if (t == "exec_statement") {
    src_.error(n, "Missing parentheses in call to 'exec'. Did you mean exec(...)?");
  } else if (t == "module") {
    check_statement_sequence(n, true);
  } else if (t == "block") {
    check_block_not_empty(n);
    check_statement_sequence(n, false);
  } else if (t == "elif_clause" || t == "else_clause" || t == "except_clause" ||
             t == "except_group_clause" || t == "finally_clause") {
    check_clause_alignment(n);
  } else if (t.ends_with("_statement") || t == "ERROR") {
    note_clauses(n);
  }
  if (t == "decorated_definition") {
    check_decorator_alignment(n);
  } else if (t == "argument_list") {
    check_arguments(n);
  } else if (t == "parameters" || t == "lambda_parameters") {
    check_parameters(n);
  }
  check_expression_context(n);
  check_grammar_leaks(n);
}

void SyntaxChecker::check_identifier(TSNode n) const {
  if (is_reserved_word(src_.text_of(n))) src_.error(n, "invalid syntax");
}

void SyntaxChecker::check_string_start(TSNode n) const {
  string_view start = src_.text_of(n);
  size_t quote = start.find_first_of("'\"");
  if (quote == string_view::npos || !parse_string_prefix(start.substr(0, quote)).valid)
    src_.error(n, "invalid syntax");
}

// A newline inside a '...' or "..." string must be escaped; tree-sitter's scanner lets an
// unescaped one through after an escape sequence.
void SyntaxChecker::check_single_line_string(TSNode string) const {
  std::vector<Child> parts = children_of(string);
  if (parts.size() < 2 || !is_type(parts.front().node, "string_start")) return;
  string_view start = src_.text_of(parts.front().node);
  if (start.empty() || start.size() - start.find_first_of("'\"") != 1) return;  // triple
  size_t begin = src_.end(parts.front().node), end = src_.begin(parts.back().node);
  string_view body = src_.text().substr(begin, end - begin);
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\\') {
      if (i + 2 < body.size() && body[i + 1] == '\r' && body[i + 2] == '\n') ++i;
      ++i;
    } else if (body[i] == '\n' || body[i] == '\r') {
      src_.error(parts.front().node,
                 fmt::format("unterminated string literal (detected at line {})",
                             src_.line_of(src_.begin(string))));
    }
  }
}

}  // namespace tile2cu::frontend_detail
