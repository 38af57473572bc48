#include "support/c_text.hpp"

#include <fmt/format.h>

namespace tile2cu {

namespace {
bool is_control(unsigned char c) { return c < 0x20 || c == 0x7f; }
}  // namespace

std::string c_string_body(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (is_control(c)) {
      out += fmt::format("\\{:03o}", c);  // octal: never absorbs a following hex digit
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string c_string_unescape(std::string_view body) {
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\' || i + 1 == body.size()) {
      out += body[i];
      continue;
    }
    char next = body[++i];
    if (next >= '0' && next <= '7') {
      int value = 0, digits = 0;
      for (; digits < 3 && i < body.size() && body[i] >= '0' && body[i] <= '7'; ++digits, ++i)
        value = value * 8 + (body[i] - '0');
      --i;
      out += static_cast<char>(value);
    } else {
      out += next;
    }
  }
  return out;
}

std::string comment_safe(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (is_control(c) && c != '\t')
      out += fmt::format("\\x{:02x}", c);
    else
      out += static_cast<char>(c);
  }
  // A backslash followed only by blanks before the newline still splices lines (GCC).
  while (!out.empty() && (out.back() == ' ' || out.back() == '\t')) out.pop_back();
  if (!out.empty() && out.back() == '\\') out += " //";
  return out;
}

}  // namespace tile2cu
