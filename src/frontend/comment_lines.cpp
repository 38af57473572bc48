#include "frontend/comment_lines.hpp"

#include <algorithm>

#include "frontend/literals.hpp"
#include "frontend/syntax_tree.hpp"

namespace tile2cu::frontend_detail {
namespace {

bool is_newline(char c) { return c == '\n' || c == '\r'; }

}  // namespace

BlankedText blank_comment_lines(std::string_view source) {
  BlankedText out{std::string(source), {}};
  std::string& t = out.text;
  bool continued = false;  // the previous physical line ended in a backslash
  size_t i = 0;
  while (i < t.size()) {
    while (i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\f')) ++i;
    if (i < t.size() && t[i] == '#' && !continued) {
      out.blanked.push_back(i);
      for (; i < t.size() && !is_newline(t[i]); ++i) t[i] = ' ';
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
        ++i;
      }
    }
    if (i < t.size() && t[i] == '\r') ++i;
    if (i < t.size() && t[i] == '\n') ++i;
  }
  return out;
}

bool string_covers_blanked_line(TSNode root, const BlankedText& text) {
  if (text.blanked.empty()) return false;
  bool covered = false;
  walk_preorder(root, [&](TSNode n) {
    if (!is_type(n, "string")) return Walk::Descend;
    auto first = std::lower_bound(text.blanked.begin(), text.blanked.end(), ts_node_start_byte(n));
    covered = first != text.blanked.end() && *first < ts_node_end_byte(n);
    return covered ? Walk::Stop : Walk::Skip;
  });
  return covered;
}

}  // namespace tile2cu::frontend_detail
