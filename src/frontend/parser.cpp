// Python source -> kernel AST, in three steps:
//   1. tree-sitter-python builds a concrete syntax tree (it never fails; it marks errors);
//   2. SyntaxChecker turns error marks into a CompileError, and rejects what tree-sitter's
//      forgiving grammar accepts but Python 3 does not (keywords used as names, bad
//      indentation, Python 2 forms, malformed number literals, ...);
//   3. Lowerer maps the tree onto ast.hpp, keeping constructs outside the tile subset as
//      Unsupported nodes.
// Where a file has several problems, the earliest is reported, as Python does.
// Every walk over the raw tree is iterative; only the lowering recurses, bounded by
// kMaxNesting, so no input can overflow the stack.
//
// Known limit of tree-sitter-python (0.23 and 0.25): a line inside brackets indented less
// than its statement, right after a token like `.` or `*`, is read as a dedent. Python
// accepts it; we report it with a hint to indent the line further.
#include "frontend/parser.hpp"

#include <tree_sitter/api.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "support/diagnostic.hpp"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace tile2cu {
namespace {

using std::string_view;

// Deeper syntax trees are refused: the lowering and every later pass recurse over the AST.
constexpr int kMaxNesting = 500;

// ============================================================================================
// tree-sitter helpers
// ============================================================================================

struct ParserDeleter {
  void operator()(TSParser* parser) const { ts_parser_delete(parser); }
};
struct TreeDeleter {
  void operator()(TSTree* tree) const { ts_tree_delete(tree); }
};

class Cursor {
 public:
  explicit Cursor(TSNode node) : cursor_(ts_tree_cursor_new(node)) {}
  ~Cursor() { ts_tree_cursor_delete(&cursor_); }
  Cursor(const Cursor&) = delete;
  Cursor& operator=(const Cursor&) = delete;
  TSTreeCursor* get() { return &cursor_; }

 private:
  TSTreeCursor cursor_;
};

string_view type_of(TSNode node) { return ts_node_type(node); }
bool is_type(TSNode node, string_view type) { return type_of(node) == type; }

enum class Walk { Descend, Skip, Stop };

// Pre-order walk without recursion; `visit(node)` says whether to enter the node's children.
template <class Visit>
void walk_preorder(TSNode root, Visit&& visit) {
  Cursor cursor(root);
  TSTreeCursor* c = cursor.get();
  Walk next = visit(root);
  for (;;) {
    if (next == Walk::Stop) return;
    if (next == Walk::Descend && ts_tree_cursor_goto_first_child(c)) {
      next = visit(ts_tree_cursor_current_node(c));
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(c)) {
      if (!ts_tree_cursor_goto_parent(c)) return;
    }
    next = visit(ts_tree_cursor_current_node(c));
  }
}

struct Child {
  TSNode node;
  string_view field;  // empty when the child has no field name
};

// The children of `node` in order, named and anonymous, without comments and line
// continuations (tree-sitter "extras", which may sit between any two tokens).
std::vector<Child> children_of(TSNode node) {
  std::vector<Child> out;
  Cursor cursor(node);
  TSTreeCursor* c = cursor.get();
  if (!ts_tree_cursor_goto_first_child(c)) return out;
  do {
    TSNode child = ts_tree_cursor_current_node(c);
    if (ts_node_is_extra(child)) continue;
    const char* field = ts_tree_cursor_current_field_name(c);
    out.push_back({child, field ? string_view(field) : string_view()});
  } while (ts_tree_cursor_goto_next_sibling(c));
  return out;
}

std::vector<TSNode> named_children_of(TSNode node) {
  std::vector<TSNode> out;
  for (const Child& child : children_of(node))
    if (ts_node_is_named(child.node)) out.push_back(child.node);
  return out;
}

std::vector<TSNode> field_children(TSNode node, string_view field) {
  std::vector<TSNode> out;
  for (const Child& child : children_of(node))
    if (child.field == field) out.push_back(child.node);
  return out;
}

std::optional<TSNode> field_of(TSNode node, string_view field) {
  TSNode child = ts_node_child_by_field_name(node, field.data(), uint32_t(field.size()));
  if (ts_node_is_null(child)) return std::nullopt;
  return child;
}

bool has_anonymous_child(TSNode node, string_view type) {
  for (const Child& child : children_of(node))
    if (!ts_node_is_named(child.node) && type_of(child.node) == type) return true;
  return false;
}

// ============================================================================================
// Text helpers
// ============================================================================================

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

bool is_compound_statement(string_view type) {
  return type == "if_statement" || type == "for_statement" || type == "while_statement" ||
         type == "try_statement" || type == "with_statement" || type == "function_definition" ||
         type == "class_definition" || type == "decorated_definition" ||
         type == "match_statement";
}

// ============================================================================================
// Number literals
// ============================================================================================

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

bool is_imaginary(string_view text) {
  return !text.empty() && (text.back() == 'j' || text.back() == 'J') && int_literal_base(text) != 16;
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

// nullopt when `text` is a valid Python 3 number literal, else the message Python gives.
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

// Python's tokenizer also rejects a number run straight into a name or digit (`0o78`,
// `1_000._5`), except before the keywords it tolerates there (`1if x else 2`).
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

// The exact value of a validated integer literal, or nullopt beyond __int128.
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

// ============================================================================================
// String literals
// ============================================================================================

struct StringPrefix {
  bool raw = false, bytes = false, format = false, valid = true;
};

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

// Python reads source with universal newlines: "\r\n" and "\r" inside a string become "\n".
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

struct DecodedString {
  std::string value;
  std::string error;          // a syntax error message, when not empty
  bool named_escape = false;  // \N{...}: needs Unicode's name table, which we do not carry
};

std::optional<uint32_t> hex_value(string_view s) {
  uint32_t v = 0;
  for (char c : s) {
    if (!is_digit_of(c, 16)) return std::nullopt;
    v = v * 16 + uint32_t(digit_value(c));
  }
  return v;
}

// Decodes the backslash escapes of a non-raw str literal body.
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

// ============================================================================================
// Source positions
// ============================================================================================

// The text being parsed and how tree-sitter's byte offsets map onto SourceRanges.
class Source {
 public:
  Source(std::shared_ptr<const SourceFile> file, size_t base)
      : file_(std::move(file)), text_(file_->text()), base_(base) {
    line_starts_.push_back(0);
    for (size_t i = 0; i < text_.size(); ++i)
      if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }

  const std::shared_ptr<const SourceFile>& file() const { return file_; }
  string_view text() const { return text_; }
  // The part handed to tree-sitter (without a UTF-8 byte order mark).
  string_view parsed_text() const { return text_.substr(base_); }

  size_t begin(TSNode n) const { return base_ + ts_node_start_byte(n); }
  size_t end(TSNode n) const { return base_ + ts_node_end_byte(n); }
  string_view text_of(TSNode n) const { return text_.substr(begin(n), end(n) - begin(n)); }
  SourceRange range(TSNode n) const { return range(begin(n), end(n)); }
  SourceRange span(TSNode first, TSNode last) const { return range(begin(first), end(last)); }

  SourceRange range(size_t begin, size_t end) const {
    auto [line, col] = position(begin);
    auto [end_line, end_col] = position(end);
    return {line, col, end_line, end_col};
  }

  int line_of(size_t offset) const { return position(offset).first; }

  // The whitespace before `offset` when it is the first token of a logical line, else nullopt.
  std::optional<string_view> indentation_before(size_t offset) const {
    size_t line_start = std::max(line_start_of(offset), base_);
    string_view prefix = text_.substr(line_start, offset - line_start);
    if (prefix.find_first_not_of(" \t\f") != string_view::npos) return std::nullopt;
    if (follows_backslash_continuation(line_start)) return std::nullopt;
    return prefix;
  }

  // The leading whitespace of the physical line holding `offset`.
  string_view line_indentation(size_t offset) const {
    size_t line_start = std::max(line_start_of(offset), base_);
    string_view line = text_.substr(line_start);
    return line.substr(0, std::min(line.find_first_not_of(" \t\f"), line.size()));
  }

  [[noreturn]] void error(SourceRange range, std::string message,
                          ErrorKind kind = ErrorKind::Syntax) const {
    throw CompileError(kind, std::move(message), file_, range);
  }
  [[noreturn]] void error(TSNode node, std::string message,
                          ErrorKind kind = ErrorKind::Syntax) const {
    error(range(node), std::move(message), kind);
  }

 private:
  size_t line_start_of(size_t offset) const {
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    return *(it - 1);
  }

  bool follows_backslash_continuation(size_t line_start) const {
    if (line_start == 0) return false;
    size_t end = line_start - 1;  // the '\n'
    if (end > 0 && text_[end - 1] == '\r') --end;
    return end > 0 && text_[end - 1] == '\\';
  }

  // 1-based line and column; columns count code points.
  std::pair<int, int> position(size_t offset) const {
    offset = std::min(offset, text_.size());
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    int line = int(it - line_starts_.begin());
    int col = 1;
    for (size_t i = *(it - 1); i < offset; ++i)
      if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) ++col;
    return {line, col};
  }

  std::shared_ptr<const SourceFile> file_;
  string_view text_;
  size_t base_;
  std::vector<size_t> line_starts_;
};

// ============================================================================================
// Syntax checking
// ============================================================================================

// Python refuses a file before tokenizing when it is not UTF-8 or holds NUL bytes.
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

// Indentation width with tabs to the next multiple of `tab_size`, as Python's tokenizer.
int indent_width(string_view indent, int tab_size) {
  int width = 0;
  for (char c : indent)
    width = c == '\t' ? (width / tab_size + 1) * tab_size : c == '\f' ? 0 : width + 1;
  return width;
}

class SyntaxChecker {
 public:
  explicit SyntaxChecker(const Source& src) : src_(src) {}

  // Throws for the first error tree-sitter marked, with the message Python would give
  // where it can be told.
  [[noreturn]] void report_parse_error(TSNode root) const;
  // Throws for what parsed cleanly but is not Python 3.
  void check(TSNode root) const;

 private:
  TSNode first_error_node(TSNode root) const;
  std::optional<std::pair<SourceRange, std::string>> bracket_problem(TSNode root) const;
  [[noreturn]] void report_error_node(TSNode error) const;
  void report_missing_colon(TSNode error) const;
  void check_indentation_depth(TSNode root) const;
  TSNode innermost_error(TSNode error) const;
  std::optional<TSNode> dedented_continuation(TSNode root, uint32_t last_row) const;
  bool is_unterminated_string(TSNode error) const;

  void check_token(TSNode node) const;
  void check_structure(TSNode node) const;
  void check_identifier(TSNode node) const;
  void check_string_start(TSNode node) const;
  void check_single_line_string(TSNode node) const;
  void check_grammar_leaks(TSNode node) const;
  void check_statement_sequence(TSNode container, bool is_module,
                                std::optional<uint32_t> stop_at = std::nullopt,
                                const std::function<void(TSNode)>& each = {}) const;
  void check_subtree(TSNode node, bool whole_file) const;
  void check_before_error(TSNode root, TSNode error) const;
  void check_block_not_empty(TSNode block) const;
  void report_bad_indent(TSNode stmt, string_view indent, string_view expected,
                         std::optional<TSNode> previous) const;
  void check_clause_alignment(TSNode clause) const;
  void check_decorator_alignment(TSNode decorated) const;
  void check_arguments(TSNode arguments) const;
  void check_parameters(TSNode parameters) const;
  void check_expression_context(TSNode node) const;
  void check_starred(TSNode splat) const;
  void check_type_parameter_form(TSNode constrained) const;
  void check_splat_type(TSNode splat) const;
  void check_comprehension_iterable(TSNode clause) const;
  void check_assignment_chain(TSNode assignment) const;
  void check_separators(TSNode sequence) const;
  void check_delete_targets(TSNode del) const;
  void check_raise_from(TSNode raise) const;
  void check_import_list(TSNode import) const;
  void check_logical_lines(TSNode root, bool whole_file) const;
  void check_trailing_continuation(TSNode root) const;

  const Source& src_;
};

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

// Tokens first, then structure: Python's tokenizer rejects `1__0` before its parser could
// complain that `1_` and `_0` share a line.
void SyntaxChecker::check(TSNode root) const {
  check_indentation_depth(root);
  check_subtree(root, true);
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
  } else if (t == "decorated_definition") {
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

// Statements of one block: each on its own logical line (or separated by ';') and all
// starting at the block's indentation. tree-sitter's scanner is lax about both.
//
// With `stop_at`, only the statements wholly before that byte are looked at, and `each`
// runs on every one of them once its own position is checked (see check_before_error).
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

// `else:` and friends line up with the statement they belong to.
void SyntaxChecker::check_clause_alignment(TSNode clause) const {
  auto clause_indent = src_.indentation_before(src_.begin(clause));
  auto owner_indent = src_.indentation_before(src_.begin(ts_node_parent(clause)));
  if (clause_indent && owner_indent && *clause_indent != *owner_indent) {
    TSNode before = ts_node_prev_sibling(clause);
    report_bad_indent(ts_node_child(clause, 0), *clause_indent, *owner_indent,
                      ts_node_is_null(before) ? std::nullopt : std::optional(before));
  }
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

// The identifier that names a parameter node, if it has one.
std::optional<TSNode> parameter_name(TSNode param) {
  string_view t = type_of(param);
  if (t == "identifier") return param;
  if (t == "default_parameter" || t == "typed_default_parameter") {
    auto name = field_of(param, "name");
    if (name && is_type(*name, "identifier")) return name;
    return std::nullopt;
  }
  if (t == "typed_parameter" || t == "list_splat_pattern" || t == "dictionary_splat_pattern") {
    std::vector<TSNode> kids = named_children_of(param);
    if (kids.empty()) return std::nullopt;
    return t == "typed_parameter" ? parameter_name(kids[0])
                                  : (is_type(kids[0], "identifier") ? std::optional(kids[0])
                                                                   : std::nullopt);
  }
  return std::nullopt;
}

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
        !line_starters.contains(ts_node_start_byte(n))) {
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

// ============================================================================================
// Lowering
// ============================================================================================

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

std::string unsupported_statement_name(string_view type, bool is_async) {
  if (type == "global_statement") return "global statement";
  if (type == "nonlocal_statement") return "nonlocal statement";
  if (type == "delete_statement") return "del statement";
  if (type == "raise_statement") return "raise statement";
  if (type == "assert_statement") return "assert statement";
  if (type == "with_statement") return is_async ? "async with statement" : "with statement";
  if (type == "try_statement") return "try/except";
  if (type == "class_definition") return "class definition";
  if (type == "match_statement") return "match statement";
  if (type == "type_alias_statement") return "type alias";
  std::string name(type);
  std::replace(name.begin(), name.end(), '_', ' ');
  return name;
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
  if (type == "yield") return "yield";
  if (type == "dictionary_splat") return "** unpacking";
  std::string name(type);
  std::replace(name.begin(), name.end(), '_', ' ');
  return name;
}

class Lowerer {
 public:
  explicit Lowerer(const Source& src) : src_(src) {}

  ast::Body lower_body(TSNode container);

 private:
  // RAII depth counter for the recursive descent.
  class Nesting {
   public:
    Nesting(Lowerer& lowerer, TSNode node) : depth_(lowerer.depth_) {
      if (++depth_ > kMaxNesting) lowerer.src_.error(node, "nesting too deep");
    }
    ~Nesting() { --depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;

   private:
    int& depth_;
  };

  template <class T>
  static ast::StmtPtr stmt(T kind, SourceRange range) {
    return std::make_shared<ast::Stmt>(ast::Stmt{std::move(kind), range});
  }
  template <class T>
  static ast::ExprPtr expr(T kind, SourceRange range) {
    return std::make_shared<ast::Expr>(ast::Expr{std::move(kind), range});
  }

  // statements
  ast::StmtPtr lower_stmt(TSNode node);
  ast::StmtPtr lower_expression_statement(TSNode node);
  ast::StmtPtr lower_assignment(TSNode node, SourceRange range);
  ast::StmtPtr lower_augmented_assignment(TSNode node, SourceRange range);
  ast::StmtPtr lower_if(TSNode node);
  ast::StmtPtr lower_for(TSNode node);
  ast::StmtPtr lower_while(TSNode node);
  ast::StmtPtr lower_return(TSNode node);
  ast::StmtPtr lower_function(TSNode node, std::vector<ast::ExprPtr> decorators);
  ast::StmtPtr lower_decorated(TSNode node);
  ast::StmtPtr lower_import(TSNode node);
  ast::StmtPtr lower_import_from(TSNode node);
  ast::Body lower_else(TSNode node);
  ast::Param lower_param(TSNode node);
  std::vector<ast::ImportAlias> lower_import_names(TSNode node);
  std::string dotted_name(TSNode node);

  // expressions
  ast::ExprPtr lower_expr(TSNode node);
  ast::ExprPtr lower_required(TSNode node, string_view field);
  ast::ExprPtr lower_target(TSNode node);
  ast::ExprPtr lower_integer(TSNode node);
  ast::ExprPtr lower_float(TSNode node);
  ast::ExprPtr lower_string(TSNode node);
  ast::ExprPtr lower_sequence(TSNode node, bool is_list);
  ast::ExprPtr lower_parenthesized(TSNode node);
  ast::ExprPtr lower_subscript(TSNode node);
  ast::ExprPtr lower_generic_type(TSNode node);
  ast::ExprPtr lower_slice(TSNode node);
  ast::ExprPtr lower_call(TSNode node);
  ast::ExprPtr lower_binary(TSNode node);
  ast::ExprPtr lower_unary(TSNode node);
  ast::ExprPtr lower_boolean(TSNode node);
  ast::ExprPtr lower_comparison(TSNode node);
  ast::ExprPtr lower_conditional(TSNode node);
  ast::ExprPtr lower_index(const std::vector<TSNode>& items, bool trailing_comma, TSNode owner);

  void check_target(const ast::ExprPtr& target, bool nested);
  void check_single_target(const ast::ExprPtr& target, bool annotated);

  const Source& src_;
  int depth_ = 0;
};

// ---- statements ---------------------------------------------------------------------------

ast::Body Lowerer::lower_body(TSNode container) {
  ast::Body body;
  for (TSNode child : named_children_of(container)) body.push_back(lower_stmt(child));
  return body;
}

ast::StmtPtr Lowerer::lower_stmt(TSNode node) {
  Nesting nesting(*this, node);
  string_view t = type_of(node);
  SourceRange r = src_.range(node);
  if (t == "expression_statement") return lower_expression_statement(node);
  if (t == "pass_statement") return stmt(ast::Pass{}, r);
  if (t == "break_statement") return stmt(ast::Break{}, r);
  if (t == "continue_statement") return stmt(ast::Continue{}, r);
  if (t == "return_statement") return lower_return(node);
  if (t == "if_statement") return lower_if(node);
  if (t == "for_statement") return lower_for(node);
  if (t == "while_statement") return lower_while(node);
  if (t == "function_definition") return lower_function(node, {});
  if (t == "decorated_definition") return lower_decorated(node);
  if (t == "import_statement") return lower_import(node);
  if (t == "import_from_statement" || t == "future_import_statement")
    return lower_import_from(node);
  return stmt(ast::UnsupportedStmt{unsupported_statement_name(t, has_anonymous_child(node, "async"))},
              r);
}

ast::StmtPtr Lowerer::lower_expression_statement(TSNode node) {
  SourceRange r = src_.range(node);
  std::vector<TSNode> parts = named_children_of(node);
  if (parts.empty()) src_.error(node, "invalid syntax");
  if (parts.size() == 1) {
    string_view t = type_of(parts[0]);
    if (t == "assignment") return lower_assignment(parts[0], r);
    if (t == "augmented_assignment") return lower_augmented_assignment(parts[0], r);
    return stmt(ast::ExprStmt{lower_expr(parts[0])}, r);
  }
  // `a, b` as a statement: a tuple without parentheses.
  std::vector<ast::ExprPtr> elts;
  for (TSNode part : parts) elts.push_back(lower_expr(part));
  return stmt(ast::ExprStmt{expr(ast::TupleExpr{std::move(elts)}, r)}, r);
}

// `a = b = v` arrives as assignment(a, assignment(b, v)); it becomes one Assign with two
// targets, as in Python's ast.
ast::StmtPtr Lowerer::lower_assignment(TSNode node, SourceRange range) {
  std::vector<ast::ExprPtr> targets;
  TSNode current = node;
  for (;;) {
    auto left = field_of(current, "left");
    auto right = field_of(current, "right");
    if (!left) src_.error(current, "invalid syntax");
    if (auto annotation = field_of(current, "type")) {
      if (!targets.empty() || (right && (is_type(*right, "assignment") ||
                                         is_type(*right, "augmented_assignment"))))
        src_.error(current, "invalid syntax");
      ast::ExprPtr target = lower_expr(*left);
      check_single_target(target, true);
      ast::ExprPtr value = right ? lower_expr(*right) : nullptr;
      return stmt(ast::AnnAssign{target, lower_expr(*annotation), value}, range);
    }
    if (!right) src_.error(current, "invalid syntax");
    targets.push_back(lower_target(*left));
    if (is_type(*right, "assignment") && !field_of(*right, "type")) {
      current = *right;
      continue;
    }
    if (is_type(*right, "assignment") || is_type(*right, "augmented_assignment"))
      src_.error(*right, "invalid syntax");
    return stmt(ast::Assign{std::move(targets), lower_expr(*right)}, range);
  }
}

ast::StmtPtr Lowerer::lower_augmented_assignment(TSNode node, SourceRange range) {
  auto op_node = field_of(node, "operator");
  string_view token = op_node ? src_.text_of(*op_node) : string_view();
  auto op = token.ends_with("=") ? binary_op_from(token.substr(0, token.size() - 1))
                                 : std::nullopt;
  if (!op) src_.error(op_node ? *op_node : node, "invalid syntax");
  ast::ExprPtr target = lower_required(node, "left");
  check_single_target(target, false);
  return stmt(ast::AugAssign{target, *op, lower_required(node, "right")}, range);
}

ast::StmtPtr Lowerer::lower_return(TSNode node) {
  std::vector<TSNode> values = named_children_of(node);
  ast::ExprPtr value = values.empty() ? nullptr : lower_expr(values[0]);
  return stmt(ast::Return{value}, src_.range(node));
}

// elif clauses become nested Ifs in orelse, built back to front so that a long elif chain
// costs no recursion.
ast::StmtPtr Lowerer::lower_if(TSNode node) {
  ast::ExprPtr cond = lower_required(node, "condition");
  auto consequence = field_of(node, "consequence");
  if (!consequence) src_.error(node, "expected ':'");
  ast::Body body = lower_body(*consequence);
  std::vector<TSNode> clauses = field_children(node, "alternative");
  ast::Body orelse;
  for (auto it = clauses.rbegin(); it != clauses.rend(); ++it) {
    if (is_type(*it, "else_clause")) {
      orelse = lower_else(*it);
      continue;
    }
    auto elif_body = field_of(*it, "consequence");
    if (!elif_body) src_.error(*it, "expected ':'");
    ast::If nested{lower_required(*it, "condition"), lower_body(*elif_body), std::move(orelse)};
    orelse = {stmt(std::move(nested), src_.range(src_.begin(*it), src_.end(node)))};
  }
  return stmt(ast::If{cond, std::move(body), std::move(orelse)}, src_.range(node));
}

ast::Body Lowerer::lower_else(TSNode clause) {
  auto body = field_of(clause, "body");
  if (!body) src_.error(clause, "expected ':'");
  return lower_body(*body);
}

ast::StmtPtr Lowerer::lower_for(TSNode node) {
  SourceRange r = src_.range(node);
  if (has_anonymous_child(node, "async")) return stmt(ast::UnsupportedStmt{"async for"}, r);
  auto left = field_of(node, "left");
  auto body = field_of(node, "body");
  if (!left || !body) src_.error(node, "invalid syntax");
  ast::ExprPtr target = lower_target(*left);
  ast::ExprPtr iter = lower_required(node, "right");
  ast::Body orelse;
  if (auto alternative = field_of(node, "alternative")) orelse = lower_else(*alternative);
  return stmt(ast::For{target, iter, lower_body(*body), std::move(orelse)}, r);
}

ast::StmtPtr Lowerer::lower_while(TSNode node) {
  auto body = field_of(node, "body");
  if (!body) src_.error(node, "expected ':'");
  ast::ExprPtr cond = lower_required(node, "condition");
  ast::Body orelse;
  if (auto alternative = field_of(node, "alternative")) orelse = lower_else(*alternative);
  return stmt(ast::While{cond, lower_body(*body), std::move(orelse)}, src_.range(node));
}

ast::StmtPtr Lowerer::lower_function(TSNode node, std::vector<ast::ExprPtr> decorators) {
  SourceRange r = src_.range(node);
  if (has_anonymous_child(node, "async")) return stmt(ast::UnsupportedStmt{"async function"}, r);
  if (field_of(node, "type_parameters"))
    return stmt(ast::UnsupportedStmt{"generic function (type parameters)"}, r);
  auto name = field_of(node, "name");
  auto parameters = field_of(node, "parameters");
  auto body = field_of(node, "body");
  if (!name || !parameters || !body) src_.error(node, "invalid syntax");
  ast::FunctionDef def;
  def.name = std::string(src_.text_of(*name));
  def.name_range = src_.range(*name);
  def.decorators = std::move(decorators);
  for (TSNode param : named_children_of(*parameters)) {
    string_view t = type_of(param);
    if (t == "keyword_separator" || t == "positional_separator") continue;  // `*` and `/`
    def.params.push_back(lower_param(param));
  }
  def.body = lower_body(*body);
  return stmt(std::move(def), r);
}

ast::Param Lowerer::lower_param(TSNode node) {
  ast::Param param;
  param.range = src_.range(node);
  string_view t = type_of(node);
  auto name = parameter_name(node);
  if (!name) src_.error(node, "invalid syntax");
  param.name = std::string(src_.text_of(*name));
  TSNode kind_node = node;
  if (t == "typed_parameter") {
    kind_node = named_children_of(node)[0];
    param.annotation = lower_required(node, "type");
  } else if (t == "default_parameter") {
    param.default_value = lower_required(node, "value");
  } else if (t == "typed_default_parameter") {
    param.annotation = lower_required(node, "type");
    param.default_value = lower_required(node, "value");
  }
  if (is_type(kind_node, "list_splat_pattern")) param.kind = ast::Param::Kind::VarArgs;
  if (is_type(kind_node, "dictionary_splat_pattern")) param.kind = ast::Param::Kind::KwArgs;
  return param;
}

// Decorated definitions take the `def` line as their position, as Python's ast does.
ast::StmtPtr Lowerer::lower_decorated(TSNode node) {
  std::vector<ast::ExprPtr> decorators;
  for (TSNode child : named_children_of(node)) {
    if (!is_type(child, "decorator")) continue;
    std::vector<TSNode> value = named_children_of(child);
    if (value.empty()) src_.error(child, "invalid syntax");
    decorators.push_back(lower_expr(value[0]));
  }
  auto definition = field_of(node, "definition");
  if (!definition) src_.error(node, "invalid syntax");
  if (is_type(*definition, "function_definition"))
    return lower_function(*definition, std::move(decorators));
  return stmt(ast::UnsupportedStmt{unsupported_statement_name(type_of(*definition), false)},
              src_.range(*definition));
}

// Joined from the identifiers, since Python allows `a . b` and comments between them.
std::string Lowerer::dotted_name(TSNode node) {
  if (is_type(node, "identifier")) return std::string(src_.text_of(node));
  std::string name;
  for (TSNode part : named_children_of(node)) {
    if (!name.empty()) name += '.';
    name += src_.text_of(part);
  }
  return name;
}

std::vector<ast::ImportAlias> Lowerer::lower_import_names(TSNode node) {
  std::vector<ast::ImportAlias> names;
  for (const Child& child : children_of(node)) {
    TSNode n = child.node;
    if (is_type(n, "wildcard_import")) {
      names.push_back({"*", "", src_.range(n)});
    } else if (child.field != "name") {
      continue;
    } else if (is_type(n, "aliased_import")) {
      auto dotted = field_of(n, "name");
      auto alias = field_of(n, "alias");
      if (!dotted || !alias) src_.error(n, "invalid syntax");
      names.push_back({dotted_name(*dotted), std::string(src_.text_of(*alias)), src_.range(n)});
    } else {
      names.push_back({dotted_name(n), "", src_.range(n)});
    }
  }
  return names;
}

ast::StmtPtr Lowerer::lower_import(TSNode node) {
  return stmt(ast::Import{lower_import_names(node)}, src_.range(node));
}

ast::StmtPtr Lowerer::lower_import_from(TSNode node) {
  ast::ImportFrom from;
  if (is_type(node, "future_import_statement")) {
    from.module = "__future__";
  } else if (auto module = field_of(node, "module_name")) {
    if (is_type(*module, "relative_import")) {
      for (TSNode part : named_children_of(*module)) {
        if (is_type(part, "import_prefix")) {
          string_view dots = src_.text_of(part);
          from.level = int(std::count(dots.begin(), dots.end(), '.'));
        } else {
          from.module = dotted_name(part);
        }
      }
    } else {
      from.module = dotted_name(*module);
    }
  }
  from.names = lower_import_names(node);
  return stmt(std::move(from), src_.range(node));
}

// ---- expressions --------------------------------------------------------------------------

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
  return expr(ast::UnsupportedExpr{unsupported_expression_name(t)}, r);
}

ast::ExprPtr Lowerer::lower_target(TSNode node) {
  ast::ExprPtr target = lower_expr(node);
  check_target(target, false);
  return target;
}

// Assignment and for-loop targets: names, attributes, subscripts, and (nested) tuples and
// lists of them with at most one starred element each.
void Lowerer::check_target(const ast::ExprPtr& target, bool nested) {
  if (target->as<ast::Name>() || target->as<ast::Attribute>() || target->as<ast::Subscript>())
    return;
  if (const auto* starred = target->as<ast::Starred>()) {
    if (!nested)
      src_.error(target->range, "starred assignment target must be in a list or tuple");
    check_target(starred->value, true);
    return;
  }
  const std::vector<ast::ExprPtr>* elts = nullptr;
  if (const auto* tuple = target->as<ast::TupleExpr>()) elts = &tuple->elts;
  if (const auto* list = target->as<ast::ListExpr>()) elts = &list->elts;
  if (!elts) src_.error(target->range, "cannot assign to expression");
  int starred = 0;
  for (const ast::ExprPtr& elt : *elts) {
    if (elt->as<ast::Starred>() && ++starred > 1)
      src_.error(elt->range, "multiple starred expressions in assignment");
    check_target(elt, true);
  }
}

// Targets of `x += 1` and `x: T = v` must be one name, attribute or subscript.
void Lowerer::check_single_target(const ast::ExprPtr& target, bool annotated) {
  if (target->as<ast::Name>() || target->as<ast::Attribute>() || target->as<ast::Subscript>())
    return;
  std::string what = target->as<ast::TupleExpr>() ? "tuple"
                     : target->as<ast::ListExpr>() ? "list"
                                                   : "expression";
  if (annotated) {
    src_.error(target->range, what == "expression"
                                  ? "illegal target for annotation"
                                  : fmt::format("only single target (not {}) can be annotated",
                                                what));
  }
  src_.error(target->range,
             fmt::format("'{}' is an illegal expression for augmented assignment", what));
}

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

// One node for "a" 'b' """c""": the pieces are decoded and joined. f-strings and bytes are
// outside the tile subset; mixing bytes with str is a syntax error in Python.
ast::ExprPtr Lowerer::lower_string(TSNode node) {
  SourceRange r = src_.range(node);
  std::vector<TSNode> pieces =
      is_type(node, "concatenated_string") ? named_children_of(node) : std::vector{node};
  std::string value;
  bool any_bytes = false, any_str = false, any_format = false, named_escape = false;
  for (TSNode piece : pieces) {
    std::vector<Child> parts = children_of(piece);
    if (parts.size() < 2 || !is_type(parts.front().node, "string_start") ||
        !is_type(parts.back().node, "string_end"))
      src_.error(piece, "invalid syntax");
    string_view start = src_.text_of(parts.front().node);
    StringPrefix prefix = parse_string_prefix(start.substr(0, start.find_first_of("'\"")));
    (prefix.bytes ? any_bytes : any_str) = true;
    any_format |= prefix.format;
    size_t body_begin = src_.end(parts.front().node);
    size_t body_end = src_.begin(parts.back().node);
    std::string body = normalize_newlines(src_.text().substr(body_begin, body_end - body_begin));
    if (prefix.raw || prefix.format || prefix.bytes) {
      value += body;
      continue;
    }
    DecodedString decoded = decode_escapes(body);
    if (!decoded.error.empty()) src_.error(piece, decoded.error);
    named_escape |= decoded.named_escape;
    value += decoded.value;
  }
  if (any_bytes && any_str) src_.error(r, "cannot mix bytes and nonbytes literals");
  if (any_format) return expr(ast::UnsupportedExpr{"f-string"}, r);
  if (any_bytes) return expr(ast::UnsupportedExpr{"bytes literal"}, r);
  if (named_escape) return expr(ast::UnsupportedExpr{"\\N{...} escape in string"}, r);
  return expr(ast::StrLit{std::move(value)}, r);
}

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
    call.args.push_back(lower_expr(*arguments));  // f(x for x in y): kept as Unsupported
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

}  // namespace

ast::Module parse_module(std::shared_ptr<const SourceFile> file) {
  // A UTF-8 byte order mark is not Python text; positions still count it, as the file has it.
  size_t base = file->text().starts_with("\xEF\xBB\xBF") ? 3 : 0;
  Source src(file, base);
  check_encoding(src);

  std::unique_ptr<TSParser, ParserDeleter> parser(ts_parser_new());
  if (!ts_parser_set_language(parser.get(), tree_sitter_python()))
    throw CompileError(ErrorKind::Syntax, "tree-sitter-python grammar version mismatch");
  string_view text = src.parsed_text();
  if (text.size() > std::numeric_limits<uint32_t>::max())
    src.error(SourceRange{1, 1, 1, 1}, "source file too large");
  std::unique_ptr<TSTree, TreeDeleter> tree(
      ts_parser_parse_string(parser.get(), nullptr, text.data(), uint32_t(text.size())));
  if (!tree) throw CompileError(ErrorKind::Syntax, "could not parse " + file->path());
  TSNode root = ts_tree_root_node(tree.get());

  SyntaxChecker checker(src);
  if (ts_node_has_error(root)) checker.report_parse_error(root);
  checker.check(root);

  Lowerer lowerer(src);
  return ast::Module{file, lowerer.lower_body(root)};
}

}  // namespace tile2cu
