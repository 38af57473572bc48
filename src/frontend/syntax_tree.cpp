#include "frontend/syntax_tree.hpp"

#include <algorithm>

namespace tile2cu::frontend_detail {

// ---- tree-sitter helpers --------------------------------------------------------------------

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

// ---- source positions -----------------------------------------------------------------------

Source::Source(std::shared_ptr<const SourceFile> file, size_t base)
    : file_(std::move(file)), text_(file_->text()), base_(base) {
  line_starts_.push_back(0);
  size_t continuations = 0;
  for (size_t i = 0; i < text_.size(); ++i) {
    if (i % kColumnBlock == 0) continuations_before_block_.push_back(continuations);
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
    if (is_continuation_byte(text_[i])) ++continuations;
  }
}

// UTF-8 continuation bytes before `offset`: a block's count plus a scan of at most one block,
// so that a column costs the same on a 4 MiB line as on a short one.
size_t Source::continuation_bytes_before(size_t offset) const {
  if (continuations_before_block_.empty()) return 0;  // empty text
  size_t block = std::min(offset / kColumnBlock, continuations_before_block_.size() - 1);
  size_t count = continuations_before_block_[block];
  for (size_t i = block * kColumnBlock; i < offset; ++i) count += is_continuation_byte(text_[i]);
  return count;
}

SourceRange Source::range(size_t begin, size_t end) const {
  auto [line, col] = position(begin);
  auto [end_line, end_col] = position(end);
  return {line, col, end_line, end_col};
}

std::optional<string_view> Source::indentation_before(size_t offset) const {
  size_t line_start = std::max(line_start_of(offset), base_);
  string_view prefix = text_.substr(line_start, offset - line_start);
  if (prefix.find_first_not_of(" \t\f") != string_view::npos) return std::nullopt;
  if (follows_backslash_continuation(line_start)) return std::nullopt;
  return prefix;
}

string_view Source::line_indentation(size_t offset) const {
  size_t line_start = std::max(line_start_of(offset), base_);
  string_view line = text_.substr(line_start);
  return line.substr(0, std::min(line.find_first_not_of(" \t\f"), line.size()));
}

void Source::error(SourceRange range, std::string message, ErrorKind kind) const {
  throw CompileError(kind, std::move(message), file_, range);
}

size_t Source::line_start_of(size_t offset) const {
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  return *(it - 1);
}

void Source::note_line_continuations(TSNode root) {
  continuations_.clear();
  walk_preorder(root, [&](TSNode n) {
    if (is_type(n, "line_continuation")) continuations_.push_back(begin(n));
    return Walk::Descend;
  });
}

bool Source::follows_backslash_continuation(size_t line_start) const {
  if (line_start == 0) return false;
  size_t end = line_start - 1;  // the '\n'
  if (end > 0 && text_[end - 1] == '\r') --end;
  return end > 0 && std::binary_search(continuations_.begin(), continuations_.end(), end - 1);
}

std::pair<int, int> Source::position(size_t offset) const {
  offset = std::min(offset, text_.size());
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  int line = int(it - line_starts_.begin());
  size_t start = *(it - 1);
  size_t continuations = 0;
  if (offset - start <= kColumnBlock) {  // the common case: count along the line
    for (size_t i = start; i < offset; ++i) continuations += is_continuation_byte(text_[i]);
  } else {
    continuations = continuation_bytes_before(offset) - continuation_bytes_before(start);
  }
  return {line, int(offset - start - continuations) + 1};
}

}  // namespace tile2cu::frontend_detail
