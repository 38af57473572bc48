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
// The steps live in their own files, all internal (namespace frontend_detail):
//   syntax_tree.hpp/.cpp     tree-sitter wrappers, tree walks, byte offsets -> SourceRanges;
//   literals.hpp/.cpp        number and string literals: validity and values;
//   syntax_check.hpp, syntax_{check,errors,layout,grammar,indent_width}.cpp    step 2;
//   ast_builder.hpp, build_stmt.cpp, build_expr.cpp                  step 3.
//
// Known limit of tree-sitter-python (0.23 and 0.25): a line inside brackets indented less
// than its statement, right after a token like `.` or `*`, is read as a dedent. Python
// accepts it; we report it with a hint to indent the line further (syntax_errors.cpp).
// Another: it reads indentation only up to column 255 (syntax_indent_width.cpp).
#include "frontend/parser.hpp"

#include <tree_sitter/api.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string_view>

#include "frontend/ast_builder.hpp"
#include "frontend/comment_lines.hpp"
#include "frontend/syntax_check.hpp"
#include "frontend/syntax_tree.hpp"
#include "support/diagnostic.hpp"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace tile2cu {
namespace {

struct ParserDeleter {
  void operator()(TSParser* parser) const { ts_parser_delete(parser); }
};
struct TreeDeleter {
  void operator()(TSTree* tree) const { ts_tree_delete(tree); }
};

}  // namespace

ast::Module parse_module(std::shared_ptr<const SourceFile> file) {
  using namespace frontend_detail;
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
  auto parse = [&](string_view input) {
    std::unique_ptr<TSTree, TreeDeleter> tree(
        ts_parser_parse_string(parser.get(), nullptr, input.data(), uint32_t(input.size())));
    if (!tree) throw CompileError(ErrorKind::Syntax, "could not parse " + file->path());
    return tree;
  };
  // Comment-only lines blanked (comment_lines.hpp); should the lexical scan have taken a line
  // inside a string for a comment, the tree says so and the text is parsed as it is.
  BlankedText input = blank_comment_lines(text);
  std::unique_ptr<TSTree, TreeDeleter> tree = parse(input.text);
  if (string_covers_blanked_line(ts_tree_root_node(tree.get()), input)) tree = parse(text);
  input = {};
  TSNode root = ts_tree_root_node(tree.get());
  src.note_line_continuations(root);

  SyntaxChecker checker(src);
  if (ts_node_has_error(root)) checker.report_parse_error(root);
  checker.check(root);

  Lowerer lowerer(src);
  return ast::Module{file, lowerer.lower_body(root)};
}

}  // namespace tile2cu
