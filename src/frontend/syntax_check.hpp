// Python 3's own syntax rules, applied to tree-sitter-python's tree. tree-sitter never
// fails: it marks errors and recovers, and its grammar is more forgiving than Python's.
// SyntaxChecker reports the first problem with the message and position Python would give.
// Internal to the front end; its members are spread over
//   syntax_check.cpp   the two entry points, token checks, the per-node dispatch;
//   syntax_errors.cpp  what to say about the errors tree-sitter marked (and the encoding);
//   syntax_layout.cpp  lines, indentation and statement sequences;
//   syntax_grammar.cpp constructs tree-sitter's grammar accepts in more places than Python's;
//   syntax_indent_width.cpp  lines indented further than tree-sitter's scanner can read.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "frontend/syntax_tree.hpp"

namespace tile2cu::frontend_detail {

// Python refuses a file before tokenizing when it is not UTF-8 or holds NUL bytes.
void check_encoding(const Source& src);

// Indentation width with tabs to the next multiple of `tab_size`, as Python's tokenizer.
int indent_width(string_view indent, int tab_size);

class SyntaxChecker {
 public:
  explicit SyntaxChecker(const Source& src) : src_(src) {}

  // Throws for the first error tree-sitter marked, with the message Python would give
  // where it can be told.
  [[noreturn]] void report_parse_error(TSNode root) const;
  // Throws for what parsed cleanly but is not Python 3.
  void check(TSNode root) const;

 private:
  // syntax_check.cpp
  void check_subtree(TSNode node, bool whole_file) const;
  void check_before_error(TSNode root, TSNode error) const;
  void check_token(TSNode node) const;
  void check_structure(TSNode node) const;
  void check_identifier(TSNode node) const;
  void check_string_start(TSNode node) const;
  void check_single_line_string(TSNode node) const;

  // syntax_errors.cpp
  TSNode first_error_node(TSNode root) const;
  std::optional<std::pair<SourceRange, std::string>> bracket_problem(TSNode root) const;
  [[noreturn]] void report_error_node(TSNode error) const;
  void report_missing_colon(TSNode error) const;
  TSNode innermost_error(TSNode error) const;
  std::optional<TSNode> dedented_continuation(TSNode root, uint32_t last_row) const;
  bool is_unterminated_string(TSNode error) const;

  // syntax_layout.cpp
  void check_indentation_depth(TSNode root) const;
  void check_statement_sequence(TSNode container, bool is_module,
                                std::optional<uint32_t> stop_at = std::nullopt,
                                const std::function<void(TSNode)>& each = {}) const;
  void check_block_not_empty(TSNode block) const;
  void report_bad_indent(TSNode stmt, string_view indent, string_view expected,
                         std::optional<TSNode> previous) const;
  // A statement's elif, else, except and finally clauses: found from the statement (tree-sitter
  // finds a node's parent and previous sibling only by walking the siblings, quadratic in a long
  // elif chain) and checked when the walk reaches each, so that errors come in text order.
  struct ClauseContext {
    std::optional<string_view> owner_indent;
    std::optional<TSNode> before;  // the clause's previous sibling
  };
  void note_clauses(TSNode owner) const;
  void check_clause_alignment(TSNode clause) const;
  void check_decorator_alignment(TSNode decorated) const;
  void check_logical_lines(TSNode root, bool whole_file) const;
  void check_trailing_continuation(TSNode root) const;

  // syntax_indent_width.cpp
  void check_indentation_width() const;

  // syntax_grammar.cpp
  void check_arguments(TSNode arguments) const;
  void check_parameters(TSNode parameters) const;
  void check_expression_context(TSNode node) const;
  void check_starred(TSNode splat) const;
  void check_grammar_leaks(TSNode node) const;
  void check_type_parameter_form(TSNode constrained) const;
  void check_splat_type(TSNode splat) const;
  void check_comprehension_iterable(TSNode clause) const;
  void check_assignment_chain(TSNode assignment) const;
  void check_separators(TSNode sequence) const;
  void check_delete_targets(TSNode del) const;
  void check_raise_from(TSNode raise) const;
  void check_import_list(TSNode import) const;

  const Source& src_;
  mutable std::unordered_map<const void*, ClauseContext> clauses_;  // by TSNode::id
};

}  // namespace tile2cu::frontend_detail
