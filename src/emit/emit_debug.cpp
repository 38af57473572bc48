#include "emit/emit_debug.hpp"

#include <fmt/format.h>

namespace tile2cu {

namespace {

constexpr int kMaxPrintfArgs = 32;  // CUDA's device printf limit

size_t aligned16(size_t n) { return (n + 15) / 16 * 16; }

// "[%f, %f], [..]" for a tile of `shape`, and the flat element order it consumes.
std::string bracketed_format(const ir::Shape& shape, const std::string& conversion) {
  int64_t n = ir::shape_elements(shape);
  std::string out;
  for (int64_t i = 0; i < n; ++i) {
    int64_t extent = 1;
    for (size_t k = shape.size(); k-- > 0;) {
      extent *= shape[k];
      if (i % extent == 0) out += '[';
    }
    out += conversion;
    extent = 1;
    for (size_t k = shape.size(); k-- > 0;) {
      extent *= shape[k];
      if ((i + 1) % extent == 0) out += ']';
    }
    if (i + 1 < n) out += ", ";
  }
  return out;
}

}  // namespace

std::string cpp_string_literal(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += {'\\', c};
    else if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\x{:02x}", c);
    else out += c;
  }
  return out + "\"";
}

size_t print_scratch_bytes(const ir::Function& fn, const ir::Op& op) {
  size_t bytes = 0;
  for (ir::ValueId v : op.operands) {
    const ir::TileType& t = fn.type(v);
    if (!t.is_scalar()) bytes += aligned16(static_cast<size_t>(ir::shape_elements(t.shape)) * dtype_bytes(t.dtype));
  }
  return bytes;
}

std::vector<std::string> print_statement(const std::vector<std::string>& text,
                                         const std::vector<PrintedValue>& values) {
  std::vector<std::string> lines;
  int64_t printf_args = 0;
  bool any_tile = false;
  for (const auto& v : values) {
    any_tile |= !v.type.is_scalar();
    printf_args += v.type.is_scalar() ? 1 : ir::shape_elements(v.type.shape);
  }
  if (!any_tile) {
    std::string format = text[0], args;
    for (size_t i = 0; i < values.size(); ++i) {
      format += text[2 * i + 1] + text[2 * i + 2];
      args += fmt::format(", printf_arg({})", values[i].expr);
    }
    lines.push_back(fmt::format("if (threadIdx.x == 0) print_line({}{});", cpp_string_literal(format), args));
    return lines;
  }
  // Tiles: every thread writes its elements to shared memory, then thread 0 prints.
  lines.push_back("{");
  size_t offset = 0;
  std::vector<std::string> buffers(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const auto& v = values[i];
    if (v.type.is_scalar()) continue;
    buffers[i] = fmt::format("printed{}", i);
    lines.push_back(fmt::format("  const auto* {} = stage({}, smem + {});", buffers[i], v.expr, offset));
    offset += aligned16(static_cast<size_t>(ir::shape_elements(v.type.shape)) * dtype_bytes(v.type.dtype));
  }
  lines.push_back("  __syncthreads();");
  if (printf_args <= kMaxPrintfArgs) {  // one printf call: the block's line stays whole
    std::string format = text[0], args;
    for (size_t i = 0; i < values.size(); ++i) {
      const auto& v = values[i];
      if (v.type.is_scalar()) {
        format += text[2 * i + 1];
        args += fmt::format(", printf_arg({})", v.expr);
      } else {
        format += bracketed_format(v.type.shape, text[2 * i + 1]);
        for (int64_t e = 0; e < ir::shape_elements(v.type.shape); ++e)
          args += fmt::format(", printf_arg({}[{}])", buffers[i], e);
      }
      format += text[2 * i + 2];
    }
    lines.push_back(fmt::format("  if (threadIdx.x == 0) print_line({}{});", cpp_string_literal(format), args));
  } else {  // more than printf takes at once: one call per piece, under a lock across blocks
    lines.push_back("  if (threadIdx.x == 0) {");
    lines.push_back("    print_lock();");
    std::string pending = text[0];
    auto flush = [&](const std::string& args) {
      if (!pending.empty() || !args.empty())
        lines.push_back(fmt::format("    printf({}{});", cpp_string_literal(pending), args));
      pending.clear();
    };
    for (size_t i = 0; i < values.size(); ++i) {
      const auto& v = values[i];
      if (v.type.is_scalar()) {
        pending += text[2 * i + 1];
        flush(fmt::format(", printf_arg({})", v.expr));
      } else {
        flush("");
        lines.push_back(fmt::format("    print_elements<{}>({}, {});", v.shape, buffers[i],
                                    cpp_string_literal(text[2 * i + 1])));
      }
      pending += text[2 * i + 2];
    }
    flush("");
    lines.push_back("    print_unlock();");
    lines.push_back("  }");
  }
  lines.push_back("  __syncthreads();  // the staging buffer is reused");
  lines.push_back("}");
  return lines;
}

}  // namespace tile2cu
