// The text tree-sitter parses: the source with its comment-only lines blanked.
//
// tree-sitter-python's external scanner (scanner.c, 0.23 to 0.25) decides INDENT and DEDENT at
// a comment-only line by reading ahead to the next line of code, and it does so again at each
// line of a run of comments: n comment lines in a row cost O(n^2) (13,000 took 15 s). Python
// gives such a line no meaning, so the parsed text has them replaced by blanks of the same
// length: every byte offset, and so every position in a message, stays what it was. Internal to
// the front end.
#pragma once

#include <tree_sitter/api.h>

#include <string>
#include <string_view>
#include <vector>

namespace tile2cu::frontend_detail {

struct BlankedText {
  std::string text;            // the same length as the source
  std::vector<size_t> blanked;  // offsets of the blanked lines' '#', ascending
};

// Blanks each line whose first non-blank character is a '#' outside string literals, except
// after a line ending in a backslash (which may join it to the line before).
BlankedText blank_comment_lines(std::string_view text);

// Whether a string literal in the tree (parsed from `text.text`) covers a blanked line: the
// lexical scan misjudged a string, so the original text must be parsed instead.
bool string_covers_blanked_line(TSNode root, const BlankedText& text);

}  // namespace tile2cu::frontend_detail
