#include "frontend/literals.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <limits>

#include <fmt/format.h>

namespace tile2cu::frontend_detail {

// ---- number literals ------------------------------------------------------------------------

namespace {

bool is_digit_of(char c, int base) {
  switch (base) {
    case 2: return c == '0' || c == '1';
    case 8: return c >= '0' && c <= '7';
    case 10: return c >= '0' && c <= '9';
    default: return std::isxdigit(static_cast<unsigned char>(c)) != 0;
  }
}

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  return (c | 0x20) - 'a' + 10;
}

// Python's digit groups: digits with single underscores between them. After a base
// prefix an underscore may also come first (`0x_ff`).
bool is_digit_run(string_view s, int base, bool underscore_may_lead) {
  if (s.empty()) return false;
  bool first = true;
  for (size_t i = 0; i < s.size(); ++i, first = false) {
    if (s[i] == '_') {
      if (first && !underscore_may_lead) return false;
      ++i;
    }
    if (i >= s.size() || !is_digit_of(s[i], base)) return false;
  }
  return true;
}

int int_literal_base(string_view text) {
  if (text.size() >= 2 && text[0] == '0') {
    switch (text[1] | 0x20) {
      case 'x': return 16;
      case 'o': return 8;
      case 'b': return 2;
    }
  }
  return 10;
}

// Float (and imaginary) literal body: digitpart? ("." digitpart?)? (e [+-]? digitpart)?
bool is_valid_float_body(string_view s) {
  size_t e = s.find_first_of("eE");
  string_view mantissa = s.substr(0, e);
  if (e != string_view::npos) {
    string_view exponent = s.substr(e + 1);
    if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) exponent.remove_prefix(1);
    if (!is_digit_run(exponent, 10, false)) return false;
  }
  size_t dot = mantissa.find('.');
  if (dot == string_view::npos) return is_digit_run(mantissa, 10, false);
  string_view whole = mantissa.substr(0, dot), fraction = mantissa.substr(dot + 1);
  if (whole.empty() && fraction.empty()) return false;
  return (whole.empty() || is_digit_run(whole, 10, false)) &&
         (fraction.empty() || is_digit_run(fraction, 10, false));
}

// Power of ten of the leading significant digit (1 for "5.0", -1 for "0.05"), used only to
// tell overflow from underflow when from_chars reports the value out of range.
long decimal_magnitude(string_view s) {
  size_t e = s.find_first_of("eE");
  long exponent = 0;
  if (e != string_view::npos) {
    string_view digits = s.substr(e + 1);
    bool negative = !digits.empty() && digits[0] == '-';
    if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) digits.remove_prefix(1);
    for (char c : digits) exponent = std::min(exponent * 10 + (c - '0'), 1'000'000'000L);
    if (negative) exponent = -exponent;
    s = s.substr(0, e);
  }
  size_t dot = std::min(s.find('.'), s.size());
  size_t first = s.find_first_of("123456789");
  if (first == string_view::npos) return std::numeric_limits<long>::min();  // zero
  long position = first < dot ? long(dot - first) : -long(first - dot - 1);
  return position + exponent;
}

}  // namespace

bool is_imaginary(string_view text) {
  return !text.empty() && (text.back() == 'j' || text.back() == 'J') && int_literal_base(text) != 16;
}

std::optional<std::string> number_literal_problem(string_view text, bool lexed_as_float) {
  if (is_imaginary(text)) {
    if (is_valid_float_body(text.substr(0, text.size() - 1))) return std::nullopt;
    return "invalid imaginary literal";
  }
  if (lexed_as_float) {
    if (is_valid_float_body(text)) return std::nullopt;
    return "invalid decimal literal";
  }
  int base = int_literal_base(text);
  if (base != 10) {
    if (is_digit_run(text.substr(2), base, true)) return std::nullopt;
    return base == 16 ? "invalid hexadecimal literal"
                      : base == 8 ? "invalid octal literal" : "invalid binary literal";
  }
  if (!is_digit_run(text, 10, false)) return "invalid decimal literal";
  if (text[0] == '0' && text.find_first_not_of("0_") != string_view::npos)
    return "leading zeros in decimal integer literals are not permitted; use an 0o prefix for "
           "octal integers";
  return std::nullopt;
}

std::optional<std::string> number_end_problem(string_view literal, bool lexed_as_float,
                                              string_view rest) {
  if (rest.empty()) return std::nullopt;
  auto c = static_cast<unsigned char>(rest[0]);
  bool digit = std::isdigit(c) != 0;
  if (!digit && !std::isalpha(c) && c != '_' && c < 0x80) return std::nullopt;
  static constexpr std::array<string_view, 8> kTolerated = {"and", "else", "for", "if",
                                                            "in",  "is",   "not", "or"};
  for (string_view keyword : kTolerated)
    if (rest.starts_with(keyword)) return std::nullopt;
  if (is_imaginary(literal)) return "invalid imaginary literal";
  int base = lexed_as_float ? 10 : int_literal_base(literal);
  if (digit && (base == 8 || base == 2))
    return fmt::format("invalid digit '{}' in {} literal", char(c), base == 8 ? "octal" : "binary");
  return base == 16 ? "invalid hexadecimal literal"
                    : base == 8 ? "invalid octal literal"
                                : base == 2 ? "invalid binary literal" : "invalid decimal literal";
}

std::optional<__int128> int_literal_value(string_view text) {
  int base = int_literal_base(text);
  if (base != 10) text.remove_prefix(2);
  using U = unsigned __int128;
  const U limit = (U(1) << 127) - 1;
  U value = 0;
  for (char c : text) {
    if (c == '_') continue;
    auto digit = U(digit_value(c));
    if (value > (limit - digit) / U(base)) return std::nullopt;
    value = value * U(base) + digit;
  }
  return static_cast<__int128>(value);
}

double float_literal_value(string_view text) {
  std::string digits;
  for (char c : text)
    if (c != '_') digits += c;
  double value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec == std::errc::result_out_of_range)
    return decimal_magnitude(digits) > 0 ? std::numeric_limits<double>::infinity() : 0.0;
  return value;
}

// ---- string literals ------------------------------------------------------------------------

namespace {

// Lone surrogates (from "\ud800") are encoded like any other code point, as Python keeps them.
void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

std::optional<uint32_t> hex_value(string_view s) {
  uint32_t v = 0;
  for (char c : s) {
    if (!is_digit_of(c, 16)) return std::nullopt;
    v = v * 16 + uint32_t(digit_value(c));
  }
  return v;
}

}  // namespace

StringPrefix parse_string_prefix(string_view prefix) {
  StringPrefix out;
  std::string lower;
  for (char c : prefix) lower += char(std::tolower(static_cast<unsigned char>(c)));
  static constexpr std::array<string_view, 9> kValid = {"", "r", "u", "b", "br", "rb",
                                                        "f", "fr", "rf"};
  out.valid = std::find(kValid.begin(), kValid.end(), lower) != kValid.end();
  out.raw = lower.find('r') != std::string::npos;
  out.bytes = lower.find('b') != std::string::npos;
  out.format = lower.find('f') != std::string::npos;
  return out;
}

std::string normalize_newlines(string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\r') {
      out += '\n';
      if (i + 1 < s.size() && s[i + 1] == '\n') ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

DecodedString decode_escapes(string_view s) {
  DecodedString out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out.value += s[i];
      continue;
    }
    char c = s[++i];
    switch (c) {
      case '\n': break;  // backslash-newline joins the lines
      case '\\': out.value += '\\'; break;
      case '\'': out.value += '\''; break;
      case '"': out.value += '"'; break;
      case 'a': out.value += '\a'; break;
      case 'b': out.value += '\b'; break;
      case 'f': out.value += '\f'; break;
      case 'n': out.value += '\n'; break;
      case 'r': out.value += '\r'; break;
      case 't': out.value += '\t'; break;
      case 'v': out.value += '\v'; break;
      case 'x':
      case 'u':
      case 'U': {
        size_t width = c == 'x' ? 2 : c == 'u' ? 4 : 8;
        std::optional<uint32_t> code;
        if (s.size() - (i + 1) >= width) code = hex_value(s.substr(i + 1, width));
        if (!code) {
          out.error = fmt::format("(unicode error) truncated \\{}{} escape", c,
                                  std::string(width, 'X'));
          return out;
        }
        if (*code > 0x10FFFF) {
          out.error = "(unicode error) illegal Unicode character";
          return out;
        }
        append_utf8(out.value, *code);
        i += width;
        break;
      }
      case 'N': {
        size_t close = s.find('}', i);
        if (i + 1 >= s.size() || s[i + 1] != '{' || close == string_view::npos ||
            close == i + 2) {
          out.error = "(unicode error) malformed \\N character escape";
          return out;
        }
        out.named_escape = true;
        out.value += s.substr(i - 1, close - i + 2);
        i = close;
        break;
      }
      default:
        if (c >= '0' && c <= '7') {
          uint32_t code = 0;
          size_t k = 0;
          for (; k < 3 && i + k < s.size() && s[i + k] >= '0' && s[i + k] <= '7'; ++k)
            code = code * 8 + uint32_t(s[i + k] - '0');
          append_utf8(out.value, code);
          i += k - 1;
        } else {
          out.value += '\\';  // unknown escapes stay as written (Python warns, keeps both)
          out.value += c;
        }
    }
  }
  return out;
}

size_t skip_string_literal(string_view t, size_t at) {
  const char quote = t[at];
  const bool triple = at + 2 < t.size() && t[at + 1] == quote && t[at + 2] == quote;
  size_t i = at + (triple ? 3 : 1);
  while (i < t.size()) {
    if (t[i] == '\\') {
      i += 2;
    } else if (t[i] == quote &&
               (!triple || (i + 2 < t.size() && t[i + 1] == quote && t[i + 2] == quote))) {
      return i + (triple ? 3 : 1);
    } else if (!triple && (t[i] == '\n' || t[i] == '\r')) {
      return i;
    } else {
      ++i;
    }
  }
  return t.size();
}

}  // namespace tile2cu::frontend_detail
