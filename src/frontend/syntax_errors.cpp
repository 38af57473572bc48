// What to report when tree-sitter marked an error: Python's message and position where it
// can be told, found by looking at the text around tree-sitter's (often late) error node.
// Also the encoding check, which Python makes before it tokenizes anything.
#include "frontend/syntax_check.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include <fmt/format.h>

namespace tile2cu::frontend_detail {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 where the bytes are not UTF-8.
size_t utf8_sequence_length(string_view s, size_t i) {
  auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) return 1;
  size_t len;
  char32_t cp, min;
  if ((b0 & 0xE0) == 0xC0) {
    len = 2, cp = b0 & 0x1F, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3, cp = b0 & 0x0F, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4, cp = b0 & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

char32_t decode_utf8_at(string_view s, size_t i) {
  size_t len = utf8_sequence_length(s, i);
  auto b0 = static_cast<unsigned char>(s[i]);
  if (len <= 1) return b0;
  char32_t cp = b0 & (0xFF >> (len + 1));
  for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  return cp;
}

}  // namespace

void check_encoding(const Source& src) {
  string_view text = src.text();
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '\0') src.error(src.range(i, i + 1), "source code cannot contain null bytes");
    size_t len = utf8_sequence_length(text, i);
    if (len == 0)
      src.error(src.range(i, i + 1),
                fmt::format("(unicode error) invalid UTF-8 byte 0x{:02X} in source",
                            static_cast<unsigned char>(text[i])));
    i += len;
  }
}

TSNode SyntaxChecker::first_error_node(TSNode root) const {
  TSNode found = root;
  walk_preorder(root, [&](TSNode n) {
    if (ts_node_is_error(n) || ts_node_is_missing(n)) {
      found = n;
      return Walk::Stop;
    }
    return ts_node_has_error(n) ? Walk::Descend : Walk::Skip;
  });
  return found;
}

// Python's tokenizer checks bracket nesting before parsing: an unmatched or mismatched
// closer, or an opener still open at the end of the file.
std::optional<std::pair<SourceRange, std::string>> SyntaxChecker::bracket_problem(
    TSNode root) const {
  std::vector<TSNode> open;
  std::optional<std::pair<SourceRange, std::string>> problem;
  auto opener_of = [](string_view closer) {
    return closer == ")" ? "(" : closer == "]" ? "[" : "{";
  };
  walk_preorder(root, [&](TSNode n) {
    if (ts_node_child_count(n) > 0) return Walk::Descend;
    if (ts_node_is_missing(n) || ts_node_is_named(n)) return Walk::Skip;
    string_view t = type_of(n);
    if (t == "(" || t == "[" || t == "{") {
      open.push_back(n);
    } else if (t == ")" || t == "]" || t == "}") {
      if (open.empty()) {
        problem.emplace(src_.range(n), fmt::format("unmatched '{}'", t));
        return Walk::Stop;
      }
      string_view opener = type_of(open.back());
      if (opener != opener_of(t)) {
        int open_line = src_.line_of(src_.begin(open.back()));
        std::string where = open_line == src_.line_of(src_.begin(n))
                                ? std::string()
                                : fmt::format(" on line {}", open_line);
        problem.emplace(src_.range(n),
                        fmt::format("closing parenthesis '{}' does not match opening "
                                    "parenthesis '{}'{}",
                                    t, opener, where));
        return Walk::Stop;
      }
      open.pop_back();
    }
    return Walk::Skip;
  });
  if (!problem && !open.empty())
    problem.emplace(src_.range(open.back()),
                    fmt::format("'{}' was never closed", type_of(open.back())));
  return problem;
}

bool SyntaxChecker::is_unterminated_string(TSNode error) const {
  return ts_node_is_error(error) && ts_node_child_count(error) == 1 &&
         is_type(ts_node_child(error, 0), "string_start");
}

void SyntaxChecker::report_parse_error(TSNode root) const {
  TSNode first = first_error_node(root);
  check_indentation_depth(root);
  check_indentation_width();  // tree-sitter's own limit, which the error may come from
  check_before_error(root, first);
  check_trailing_continuation(root);
  // A malformed number before the error is what Python's tokenizer reports (`1__0`
  // lexes as `1_` `_0`, which then fails to parse).
  walk_preorder(root, [&](TSNode n) {
    if (ts_node_start_byte(n) > ts_node_end_byte(first)) return Walk::Stop;
    if (is_type(n, "integer") || is_type(n, "float")) check_token(n);
    return Walk::Descend;
  });
  if (is_unterminated_string(first)) report_error_node(first);  // the tokenizer meets it first
  if (ts_node_is_error(first)) report_missing_colon(first);
  TSNode inner = innermost_error(first);
  if (auto line = dedented_continuation(root, ts_node_end_point(inner).row + 1))
    src_.error(*line,
               "invalid syntax: tile2cu's parser cannot read a line inside brackets that is "
               "indented less than the line it continues; indent it further");
  // Like Python, which tokenizes the whole file once parsing fails, bracket problems
  // anywhere win over a generic parse error.
  if (auto problem = bracket_problem(root)) src_.error(problem->first, problem->second);
  if (ts_node_is_missing(inner)) {
    string_view t = type_of(inner);
    src_.error(inner, ts_node_is_named(inner) ? fmt::format("expected {}", t)
                                              : fmt::format("expected '{}'", t));
  }
  report_error_node(inner);
}

// tree-sitter marks a whole region as an error when recovery folds a later problem into
// it; the nested error is where things went wrong.
TSNode SyntaxChecker::innermost_error(TSNode error) const {
  for (;;) {
    std::optional<TSNode> nested;
    walk_preorder(error, [&](TSNode n) {
      if (ts_node_eq(n, error)) return Walk::Descend;
      if (ts_node_is_error(n) || ts_node_is_missing(n)) {
        nested = n;
        return Walk::Stop;
      }
      return ts_node_has_error(n) ? Walk::Descend : Walk::Skip;
    });
    if (!nested) return error;
    error = *nested;
  }
}

// tree-sitter-python's scanner takes a line inside brackets that is indented less than
// its statement for a dedent when it follows a token like `.` or `*` (Python reads it
// fine). Found up to the error, it is the likely cause and the fix is easy to state.
std::optional<TSNode> SyntaxChecker::dedented_continuation(TSNode root,
                                                          uint32_t last_row) const {
  std::vector<TSNode> open;
  std::optional<TSNode> found, previous;
  walk_preorder(root, [&](TSNode n) {
    if (ts_node_is_extra(n) && !ts_node_is_error(n)) return Walk::Skip;
    if (!is_type(n, "string") && ts_node_child_count(n) > 0) return Walk::Descend;
    if (ts_node_start_point(n).row > last_row) return Walk::Stop;
    if (!open.empty() && previous &&
        ts_node_start_point(n).row > ts_node_end_point(*previous).row) {
      auto indent = src_.indentation_before(src_.begin(n));
      string_view statement_indent = src_.line_indentation(src_.begin(open.front()));
      if (indent && indent_width(*indent, 8) < indent_width(statement_indent, 8)) {
        found = n;
        return Walk::Stop;
      }
    }
    string_view t = ts_node_is_named(n) || ts_node_is_missing(n) ? string_view() : type_of(n);
    if (t == "(" || t == "[" || t == "{") open.push_back(n);
    if ((t == ")" || t == "]" || t == "}") && !open.empty()) open.pop_back();
    previous = n;
    return Walk::Skip;
  });
  return found;
}

void SyntaxChecker::report_error_node(TSNode error) const {
  if (is_unterminated_string(error)) {
    TSNode start = ts_node_child(error, 0);
    string_view delimiter = src_.text_of(start);
    bool triple = delimiter.size() - delimiter.find_first_of("'\"") == 3;
    string_view text = src_.text();
    size_t last = text.ends_with('\n') ? text.size() - 1 : text.size();
    int detected = triple ? src_.line_of(last) : src_.line_of(src_.begin(start));
    src_.error(start, fmt::format("unterminated {}string literal (detected at line {})",
                                  triple ? "triple-quoted " : "", detected));
  }
  // A character no token can start with, e.g. `$` or `→`.
  std::optional<TSNode> bad_char;
  walk_preorder(error, [&](TSNode n) {
    if (ts_node_is_error(n) && ts_node_child_count(n) == 0) {
      bad_char = n;
      return Walk::Stop;
    }
    return Walk::Descend;
  });
  if (bad_char) {
    size_t at = src_.begin(*bad_char);
    if (static_cast<unsigned char>(src_.text()[at]) >= 0x80) {
      char32_t cp = decode_utf8_at(src_.text(), at);
      size_t len = std::max<size_t>(1, utf8_sequence_length(src_.text(), at));
      src_.error(src_.range(at, at + len),
                 fmt::format("invalid character '{}' (U+{:04X})", src_.text().substr(at, len),
                             uint32_t(cp)));
    }
    src_.error(*bad_char, "invalid syntax");
  }
  report_missing_colon(error);
  src_.error(error, "invalid syntax");
}

// A compound statement header without its colon: `if x` / `def f()` / `else`. The colon
// is expected right after the last token on the header's line.
void SyntaxChecker::report_missing_colon(TSNode error) const {
  static constexpr std::array<string_view, 11> kHeaders = {
      "if", "elif", "else", "for", "while", "def", "class", "with", "try", "except", "finally"};
  std::vector<Child> kids = children_of(error);
  if (kids.empty() || ts_node_is_named(kids[0].node) ||
      std::find(kHeaders.begin(), kHeaders.end(), type_of(kids[0].node)) == kHeaders.end())
    return;
  uint32_t header_row = ts_node_start_point(error).row;
  bool has_colon = false;
  size_t header_end = src_.end(kids[0].node);
  walk_preorder(error, [&](TSNode n) {
    if (ts_node_start_point(n).row != header_row) return Walk::Stop;
    if (ts_node_child_count(n) > 0 && !is_type(n, "string")) return Walk::Descend;
    if (ts_node_end_point(n).row != header_row) return Walk::Stop;
    has_colon |= !ts_node_is_named(n) && type_of(n) == ":";
    header_end = std::max(header_end, src_.end(n));
    return Walk::Skip;
  });
  if (!has_colon) src_.error(src_.range(header_end, header_end), "expected ':'");
}

}  // namespace tile2cu::frontend_detail
