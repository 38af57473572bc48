// Python's number and string literals as text: whether Python 3 accepts them (with its
// messages when not) and the values they denote. Independent of tree-sitter; internal to the
// front end.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tile2cu::frontend_detail {

using std::string_view;

// ---- number literals ------------------------------------------------------------------------

// `1j`, `1.5e3J`: a complex literal (never a hexadecimal integer).
bool is_imaginary(string_view text);

// nullopt when `text` is a valid Python 3 number literal, else the message Python gives.
std::optional<std::string> number_literal_problem(string_view text, bool lexed_as_float);

// Python's tokenizer also rejects a number run straight into a name or digit (`0o78`,
// `1_000._5`), except before the keywords it tolerates there (`1if x else 2`). `rest` is
// the text after the literal.
std::optional<std::string> number_end_problem(string_view literal, bool lexed_as_float,
                                              string_view rest);

// The exact value of a validated integer literal, or nullopt beyond __int128.
std::optional<__int128> int_literal_value(string_view text);

// The nearest double to a validated float literal; inf or 0 beyond double's range.
double float_literal_value(string_view text);

// ---- string literals ------------------------------------------------------------------------

struct StringPrefix {
  bool raw = false, bytes = false, format = false, valid = true;
};

StringPrefix parse_string_prefix(string_view prefix);

// Python reads source with universal newlines: "\r\n" and "\r" inside a string become "\n".
std::string normalize_newlines(string_view s);

struct DecodedString {
  std::string value;
  std::string error;          // a syntax error message, when not empty
  bool named_escape = false;  // \N{...}: needs Unicode's name table, which we do not carry
};

// Decodes the backslash escapes of a non-raw str literal body.
DecodedString decode_escapes(string_view s);

// The offset just past the string literal whose opening quote is at `at` (or the end of its
// line, for an unterminated one-line string): a lexical scan of raw text, for the front end's
// line-by-line passes that run without the syntax tree.
size_t skip_string_literal(string_view text, size_t at);

}  // namespace tile2cu::frontend_detail
