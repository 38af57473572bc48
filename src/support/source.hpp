// A Python source file held in memory, and positions inside it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tile2cu {

// A half-open character range in one source file. Lines and columns are 1-based;
// columns count Unicode code points, so carets line up under wide text.
struct SourceRange {
  int line = 0;
  int col = 0;
  int end_line = 0;
  int end_col = 0;
  bool valid() const { return line > 0; }
};

class SourceFile {
 public:
  SourceFile(std::string path, std::string text);

  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  // The text of line `line` (1-based) without its newline; empty when out of range.
  std::string_view line_text(int line) const;
  int line_count() const { return static_cast<int>(line_starts_.size()); }

 private:
  std::string path_;
  std::string text_;
  std::vector<size_t> line_starts_;
};

}  // namespace tile2cu
