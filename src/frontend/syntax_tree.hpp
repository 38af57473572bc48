// The concrete syntax tree tree-sitter-python builds, and the text it was built from:
// thin wrappers over tree-sitter's C API, an iterative pre-order walk, and the mapping of
// tree-sitter's byte offsets onto SourceRanges. Shared by the syntax checks and the lowering;
// internal to the front end.
#pragma once

#include <tree_sitter/api.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/diagnostic.hpp"
#include "support/source.hpp"

namespace tile2cu::frontend_detail {

using std::string_view;

// ---- tree-sitter helpers --------------------------------------------------------------------

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

inline string_view type_of(TSNode node) { return ts_node_type(node); }
inline bool is_type(TSNode node, string_view type) { return type_of(node) == type; }

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
std::vector<Child> children_of(TSNode node);
std::vector<TSNode> named_children_of(TSNode node);
std::vector<TSNode> field_children(TSNode node, string_view field);
std::optional<TSNode> field_of(TSNode node, string_view field);
bool has_anonymous_child(TSNode node, string_view type);

// The identifier that names a parameter node, if it has one.
std::optional<TSNode> parameter_name(TSNode param);

// ---- source positions -----------------------------------------------------------------------

// The text being parsed and how tree-sitter's byte offsets map onto SourceRanges.
class Source {
 public:
  Source(std::shared_ptr<const SourceFile> file, size_t base);

  const std::shared_ptr<const SourceFile>& file() const { return file_; }
  string_view text() const { return text_; }
  // The part handed to tree-sitter (without a UTF-8 byte order mark).
  string_view parsed_text() const { return text_.substr(base_); }

  size_t begin(TSNode n) const { return base_ + ts_node_start_byte(n); }
  size_t end(TSNode n) const { return base_ + ts_node_end_byte(n); }
  string_view text_of(TSNode n) const { return text_.substr(begin(n), end(n) - begin(n)); }
  SourceRange range(TSNode n) const { return range(begin(n), end(n)); }
  SourceRange span(TSNode first, TSNode last) const { return range(begin(first), end(last)); }

  SourceRange range(size_t begin, size_t end) const;

  int line_of(size_t offset) const { return position(offset).first; }

  // Records where the parsed tree has line continuations: a backslash ending a line is one only
  // outside comments and strings (`# C:\\temp\\` continues nothing).
  void note_line_continuations(TSNode root);

  // The whitespace before `offset` when it is the first token of a logical line, else nullopt.
  std::optional<string_view> indentation_before(size_t offset) const;

  // The leading whitespace of the physical line holding `offset`.
  string_view line_indentation(size_t offset) const;

  [[noreturn]] void error(SourceRange range, std::string message,
                          ErrorKind kind = ErrorKind::Syntax) const;
  [[noreturn]] void error(TSNode node, std::string message,
                          ErrorKind kind = ErrorKind::Syntax) const {
    error(range(node), std::move(message), kind);
  }

 private:
  size_t line_start_of(size_t offset) const;
  bool follows_backslash_continuation(size_t line_start) const;
  // 1-based line and column; columns count code points.
  std::pair<int, int> position(size_t offset) const;
  static bool is_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }
  size_t continuation_bytes_before(size_t offset) const;
  static constexpr size_t kColumnBlock = 256;

  std::shared_ptr<const SourceFile> file_;
  string_view text_;
  size_t base_;
  std::vector<size_t> line_starts_;
  std::vector<size_t> continuations_before_block_;  // per kColumnBlock bytes of text
  std::vector<size_t> continuations_;  // offsets of the backslashes, ascending
};

}  // namespace tile2cu::frontend_detail
