// Lowering of f-strings: tree-sitter splits f"a{x!r:>{w}}b" into literal runs and
// `interpolation` nodes; they become an ast::FString of literal and replacement-field pieces,
// as Python's ast.JoinedStr. What tile code may do with the fields (no conversions, literal
// format specs) is sema's to decide: the front end only reads the syntax.
#include "frontend/ast_builder.hpp"

#include "frontend/literals.hpp"

namespace tile2cu::frontend_detail {

namespace {

// `{{` and `}}` stand for one brace in the literal runs of an f-string.
std::string undouble_braces(string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    out += s[i];
    if ((s[i] == '{' || s[i] == '}') && i + 1 < s.size() && s[i + 1] == s[i]) ++i;
  }
  return out;
}

void append_text(std::vector<ast::FStringPiece>& pieces, std::string text) {
  if (text.empty()) return;
  if (!pieces.empty() && !pieces.back().value) {
    pieces.back().text += text;
    return;
  }
  ast::FStringPiece piece;
  piece.text = std::move(text);
  pieces.push_back(std::move(piece));
}

}  // namespace

// The literal run source[begin, end) of an f-string, decoded as Python decodes it.
void Lowerer::append_fstring_text(std::vector<ast::FStringPiece>& pieces, size_t begin,
                                  size_t end, bool raw, TSNode owner, bool& named_escape) {
  std::string text = undouble_braces(normalize_newlines(src_.text().substr(begin, end - begin)));
  if (!raw) {
    DecodedString decoded = decode_escapes(text);
    if (!decoded.error.empty()) src_.error(owner, decoded.error);
    named_escape |= decoded.named_escape;
    text = std::move(decoded.value);
  }
  append_text(pieces, std::move(text));
}

// `{expr}`, `{expr!r}`, `{expr:spec}`, `{expr=}`; also a field nested in a format spec.
void Lowerer::append_replacement_field(std::vector<ast::FStringPiece>& pieces, TSNode field,
                                       bool raw, bool& named_escape) {
  auto expression = field_of(field, "expression");
  if (!expression) src_.error(field, "f-string: empty expression not allowed");
  ast::FStringPiece piece;
  piece.range = src_.range(field);
  piece.value = lower_expr(*expression);
  if (auto conversion = field_of(field, "type_conversion")) {
    string_view text = src_.text_of(*conversion);  // "!r"
    if (text.size() != 2 || (text[1] != 'r' && text[1] != 's' && text[1] != 'a'))
      src_.error(*conversion, "f-string: invalid conversion character: expected 's', 'r', or 'a'");
    piece.conversion = text[1];
  }
  if (auto spec = field_of(field, "format_specifier")) {
    piece.has_format_spec = true;
    size_t pos = src_.begin(*spec);
    for (const Child& child : children_of(*spec)) {
      if (!ts_node_is_named(child.node)) {
        if (type_of(child.node) == ":" && src_.begin(child.node) == pos) pos = src_.end(child.node);
        continue;
      }
      if (!is_type(child.node, "format_expression")) continue;
      append_fstring_text(piece.format_spec, pos, src_.begin(child.node), raw, *spec, named_escape);
      append_replacement_field(piece.format_spec, child.node, raw, named_escape);
      pos = src_.end(child.node);
    }
    append_fstring_text(piece.format_spec, pos, src_.end(*spec), raw, *spec, named_escape);
  }
  // `{x=}` prints the expression's text, then its repr unless a conversion or spec is given.
  if (has_anonymous_child(field, "=")) {
    size_t open = src_.begin(field) + 1;
    size_t equals = src_.end(*expression);
    for (const Child& child : children_of(field))
      if (!ts_node_is_named(child.node) && type_of(child.node) == "=") equals = src_.end(child.node);
    // The text runs through the blanks after `=`, as Python's does.
    while (equals < src_.text().size() && (src_.text()[equals] == ' ' || src_.text()[equals] == '\t')) ++equals;
    append_text(pieces, normalize_newlines(src_.text().substr(open, equals - open)));
    if (!piece.conversion && !piece.has_format_spec) piece.conversion = 'r';
  }
  pieces.push_back(std::move(piece));
}

// The pieces of one f"..." literal (string_start, literal runs and fields, string_end).
void Lowerer::append_fstring(std::vector<ast::FStringPiece>& pieces, TSNode string, bool raw,
                             bool& named_escape) {
  std::vector<Child> parts = children_of(string);
  size_t pos = src_.end(parts.front().node);
  for (const Child& part : parts) {
    if (!is_type(part.node, "interpolation")) continue;
    append_fstring_text(pieces, pos, src_.begin(part.node), raw, string, named_escape);
    append_replacement_field(pieces, part.node, raw, named_escape);
    pos = src_.end(part.node);
  }
  append_fstring_text(pieces, pos, src_.begin(parts.back().node), raw, string, named_escape);
}

}  // namespace tile2cu::frontend_detail
