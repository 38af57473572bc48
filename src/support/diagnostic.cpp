#include "support/diagnostic.hpp"

#include <fmt/format.h>

namespace tile2cu {

const char* error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Syntax: return "TileSyntaxError";
    case ErrorKind::Type: return "TileTypeError";
    case ErrorKind::Value: return "TileValueError";
    case ErrorKind::UnsupportedFeature: return "TileUnsupportedFeatureError";
    case ErrorKind::StaticAssertion: return "TileStaticAssertionError";
    case ErrorKind::StaticEval: return "TileStaticEvalError";
    case ErrorKind::Recursion: return "TileRecursionError";
    case ErrorKind::UnsupportedCall: return "UnsupportedCallError";
    case ErrorKind::Signature: return "SignatureError";
    case ErrorKind::Usage: return "UsageError";
  }
  return "TileError";
}

void fail(ErrorKind kind, const SourceFile* file, SourceRange range, std::string message) {
  throw CompileError(kind, std::move(message), file, range);
}

namespace {

// Number of code points in the first `bytes` bytes of a UTF-8 string.
int code_points(std::string_view s) {
  int n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

// Copies `line` but replaces tabs by one space, so a caret line made of spaces lines up.
std::string caret_line(std::string_view line, int col, int end_col) {
  std::string out;
  int cp = 0;
  for (size_t i = 0; i < line.size() && cp + 1 < col; ++i) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    if ((c & 0xC0) == 0x80) continue;
    out += (c == '\t') ? '\t' : ' ';
    ++cp;
  }
  int width = end_col > col ? end_col - col : 1;
  int remaining = code_points(line) - (col - 1);
  if (remaining > 0 && width > remaining) width = remaining;
  out.append(static_cast<size_t>(width), '^');
  return out;
}

void render_frame(std::string& out, const DiagnosticFrame& frame) {
  const SourceRange& r = frame.range;
  std::string_view line = frame.file->line_text(r.line);
  out += fmt::format("    {}\n", line);
  int end_col = (r.end_line == r.line) ? r.end_col : code_points(line) + 1;
  out += fmt::format("    {}\n", caret_line(line, r.col, end_col));
}

}  // namespace

std::string render_diagnostic(const CompileError& error) {
  std::string out;
  const auto& frames = error.frames();
  if (frames.empty() || !frames.front().file) {
    return fmt::format("error[{}]: {}\n", error_kind_name(error.kind()), error.message());
  }
  const DiagnosticFrame& top = frames.front();
  out += fmt::format("{}:{}:{}: error[{}]: {}\n", top.file->path(), top.range.line,
                     top.range.col, error_kind_name(error.kind()), error.message());
  if (top.range.valid()) render_frame(out, top);
  // Deep inlining (recursion) would print a thousand notes: keep the innermost and the outermost.
  constexpr size_t kShownInner = 8;
  for (size_t i = 1; i < frames.size(); ++i) {
    const DiagnosticFrame& f = frames[i];
    if (!f.file || !f.range.valid()) continue;
    if (frames.size() > kShownInner + 3 && i == kShownInner + 1) {
      out += fmt::format("note: ... {} more inlined calls ...\n", frames.size() - kShownInner - 2);
      i = frames.size() - 2;
      continue;
    }
    out += fmt::format("{}:{}:{}: note: in the call to {}() inlined from here\n", f.file->path(),
                       f.range.line, f.range.col,
                       frames[i - 1].function.empty() ? "a helper" : frames[i - 1].function);
    render_frame(out, f);
  }
  return out;
}

}  // namespace tile2cu
