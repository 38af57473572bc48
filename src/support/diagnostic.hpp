// Errors reported against the Python source. Every stage throws `CompileError`;
// the driver catches it once and renders it with `render_diagnostic`.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/source.hpp"

namespace tile2cu {

// The error classes of real cuTile, so that users recognise them (spec d.2).
enum class ErrorKind {
  Syntax,              // TileSyntaxError: outside the accepted Python subset
  Type,                // TileTypeError
  Value,               // TileValueError
  UnsupportedFeature,  // TileUnsupportedFeatureError; also tile2cu's "not supported yet"
  StaticAssertion,     // TileStaticAssertionError
  StaticEval,          // TileStaticEvalError: ct.static_eval / static_iter could not evaluate
  Recursion,           // TileRecursionError
  UnsupportedCall,     // cuTile's UnsupportedCallError (a bare TileError): a builtin or class device code cannot call
  Signature,           // a malformed --sig / sidecar entry (not a cuTile class)
  Usage,               // command-line misuse
};

const char* error_kind_name(ErrorKind kind);

// One frame of the inlining stack: where a helper was called from.
struct DiagnosticFrame {
  std::shared_ptr<const SourceFile> file;
  SourceRange range;
  std::string function;
};

class CompileError : public std::runtime_error {
 public:
  // Owns the file, so the error can outlive whoever parsed it.
  CompileError(ErrorKind kind, std::string message, std::shared_ptr<const SourceFile> file,
               SourceRange range = {})
      : std::runtime_error(message), kind_(kind), message_(std::move(message)) {
    if (file) frames_.push_back({std::move(file), range, {}});
  }
  // Borrows the file: the caller keeps it alive until the error is rendered.
  CompileError(ErrorKind kind, std::string message, const SourceFile* file = nullptr,
               SourceRange range = {})
      : CompileError(kind, std::move(message),
                     std::shared_ptr<const SourceFile>(file, [](const SourceFile*) {}), range) {}

  ErrorKind kind() const { return kind_; }
  const std::string& message() const { return message_; }
  // Innermost frame first.
  const std::vector<DiagnosticFrame>& frames() const { return frames_; }
  void add_caller_frame(DiagnosticFrame frame) { frames_.push_back(std::move(frame)); }
  void set_function_of_innermost(const std::string& fn) {
    if (!frames_.empty() && frames_.front().function.empty()) frames_.front().function = fn;
  }

 private:
  ErrorKind kind_;
  std::string message_;
  std::vector<DiagnosticFrame> frames_;
};

[[noreturn]] void fail(ErrorKind kind, const SourceFile* file, SourceRange range,
                       std::string message);

// file:line:col: error[TileTypeError]: message
//     <source line>
//     ^^^^^
// followed by "note: called from" frames, outermost last.
std::string render_diagnostic(const CompileError& error);

}  // namespace tile2cu
