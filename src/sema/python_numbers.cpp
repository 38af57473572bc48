#include "sema/python_numbers.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

namespace tile2cu::sema {
namespace {

std::string_view strip(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The text without its underscores, or nullopt where one is not between two digits.
std::optional<std::string> without_underscores(std::string_view s) {
  std::string out;
  for (size_t k = 0; k < s.size(); ++k) {
    if (s[k] != '_') {
      out.push_back(s[k]);
      continue;
    }
    if (k == 0 || k + 1 == s.size() || !std::isdigit(static_cast<unsigned char>(s[k - 1])) ||
        !std::isdigit(static_cast<unsigned char>(s[k + 1])))
      return std::nullopt;
  }
  return out;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k)
    if (std::tolower(static_cast<unsigned char>(a[k])) != b[k]) return false;
  return true;
}

}  // namespace

std::optional<double> python_float_of_string(std::string_view text) {
  std::string_view s = strip(text);
  double sign = 1;
  std::string_view body = s;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    sign = body[0] == '-' ? -1 : 1;
    body.remove_prefix(1);
  }
  if (equals_ignoring_case(body, "inf") || equals_ignoring_case(body, "infinity")) return sign * INFINITY;
  if (equals_ignoring_case(body, "nan")) return NAN;
  // Digits, '.', and one exponent: what strtod reads besides hex floats and inf/nan spellings
  // (the one sign is gone: "--1" is no number).
  if (body.empty() || !(std::isdigit(static_cast<unsigned char>(body[0])) || body[0] == '.')) return std::nullopt;
  bool digit = false;
  for (char c : body) {
    if (std::isdigit(static_cast<unsigned char>(c))) digit = true;
    else if (c != '.' && c != 'e' && c != 'E' && c != '+' && c != '-' && c != '_') return std::nullopt;
  }
  if (!digit) return std::nullopt;
  auto plain = without_underscores(body);
  if (!plain || plain->empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(plain->c_str(), &end);
  if (end != plain->c_str() + plain->size()) return std::nullopt;
  return sign * v;
}

std::optional<__int128> python_int_of_string(std::string_view text) {
  std::string_view s = strip(text);
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  auto plain = without_underscores(s);
  if (!plain || plain->empty()) return std::nullopt;
  const __int128 limit = static_cast<__int128>(1) << 100;
  __int128 v = 0;
  for (char c : *plain) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    v = v * 10 + (c - '0');
    if (v > limit) return std::nullopt;
  }
  return negative ? -v : v;
}

}  // namespace tile2cu::sema
