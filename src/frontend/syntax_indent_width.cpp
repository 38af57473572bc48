// tree-sitter-python's scanner saves each indentation width in one byte between tokens, so a
// logical line indented 256 columns or more (valid Python: 64 levels of 4 spaces) is misread
// as a shallower one: a confusing error far away, or a wrong tree. Such lines are reported
// as a limit of tile2cu instead. The scan follows Python's tokenizer only as far as needed to
// find the lines that start a statement: outside brackets and strings, not continued by '\'.
#include "frontend/syntax_check.hpp"

#include "frontend/literals.hpp"

#include <fmt/format.h>

namespace tile2cu::frontend_detail {
namespace {

bool is_newline(char c) { return c == '\n' || c == '\r'; }

}  // namespace

void SyntaxChecker::check_indentation_width() const {
  constexpr int kMaxWidth = 255;
  const string_view t = src_.parsed_text();
  const size_t base = src_.text().size() - t.size();
  int brackets = 0;
  bool continued = false;  // the previous physical line ended in a backslash
  size_t i = 0;
  while (i < t.size()) {
    // Indentation as tree-sitter's scanner counts it: a tab is 8 columns, a form feed resets.
    int width = 0;
    for (; i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\f'); ++i)
      width = t[i] == ' ' ? width + 1 : t[i] == '\t' ? width + 8 : 0;
    bool starts_statement =
        i < t.size() && !is_newline(t[i]) && t[i] != '#' && brackets == 0 && !continued;
    if (starts_statement && width > kMaxWidth) {
      size_t end = i;
      while (end < t.size() && !is_newline(t[end])) ++end;
      src_.error(src_.range(base + i, base + end),
                 fmt::format("a line indented {} columns: tile2cu's parser (tree-sitter-python) "
                             "reads at most {}; indent blocks by fewer columns",
                             width, kMaxWidth),
                 ErrorKind::UnsupportedFeature);
    }
    continued = false;
    while (i < t.size() && !is_newline(t[i])) {
      const char c = t[i];
      if (c == '#') {
        while (i < t.size() && !is_newline(t[i])) ++i;
      } else if (c == '\\') {
        continued = i + 1 < t.size() && is_newline(t[i + 1]);
        i += continued ? 1 : 2;
      } else if (c == '\'' || c == '"') {
        i = skip_string_literal(t, i);
      } else {
        if (c == '(' || c == '[' || c == '{') ++brackets;
        if ((c == ')' || c == ']' || c == '}') && brackets > 0) --brackets;
        ++i;
      }
    }
    if (i < t.size() && t[i] == '\r') ++i;
    if (i < t.size() && t[i] == '\n') ++i;
  }
}

}  // namespace tile2cu::frontend_detail
