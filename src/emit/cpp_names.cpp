#include "emit/cpp_names.hpp"

#include "emit/runtime_includes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

namespace tile2cu {

namespace {

// Keywords, and the macros and declared names of the headers a generated file includes, as
// scripts/reserved-cpp-names.sh found them in the toolkit. The runtime's own names come from
// the table the include rule uses (is_runtime_name), which a test keeps current.
const char* const kToolkitNames[] = {
#include "emit/cpp_reserved_names.inc"
};

// Names the emitter declares itself next to user names: the launcher's locals
// (cuda_emitter.cpp) and the kernel's (kernel_body.cpp). Its other names follow the patterns of
// in_emitter_space.
const char* const kEmitterNames[] = {"stream",         "grid",            "grid_x",      "grid_y",
                                     "grid_z",         "device",          "major",       "threads",
                                     "kernel",         "use_whole_copy",  "whole_copy_fits",
                                     "tiles_whole",    "fixed_tiles_whole", "whole",     "whole_at_launch",
                                     "smem",           "list_words",      "list_table",
                                     "block_x",        "blocks_x",        "ctas",        "smem_of_blocks"};

// What the emitter appends to a parameter's name: the flat kernel and C-entry parameters
// (`a_data`, `a_shape_0`, `a_stride_0`, a list's `xs_words`, `xs_count`, `xs_table`, `xs_size`),
// the launcher's locals (`a_arg`, `xs_at`) and tensor maps (`a_b_tma`).
const char* const kDerivedSuffixes[] = {"_data", "_arg", "_at", "_words", "_count", "_table", "_size", "_tma"};
const char* const kNumberedSuffixes[] = {"_shape_", "_stride_"};  // followed by a dimension
// The emitter's declarations in a specialization's namespace: constants (kThreads,
// kTilesWhole, kGemmLoop_64x64x32_Stages) and layout and main-loop types.
const char* const kTypePrefixes[] = {"Layout_", "GemmLoop_", "AttentionLoop_"};

// The tag every escaped name ends with, possibly followed by the underscore counts.
constexpr std::string_view kTag = "_py";

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// An escaped name's ending: `_py` and then digits and `x` (cpp_name's underscore counts).
bool ends_with_tag(std::string_view n) {
  size_t end = n.size();
  while (end > 0 && (std::isdigit(static_cast<unsigned char>(n[end - 1])) || n[end - 1] == 'x')) --end;
  return ends_with(n.substr(0, end), kTag);
}

bool in_emitter_space(std::string_view n) {
  if (n.size() >= 2 && n[0] == 'k' && std::isupper(static_cast<unsigned char>(n[1]))) return true;
  for (const char* p : kTypePrefixes)
    if (n.rfind(p, 0) == 0) return true;
  for (const char* s : kDerivedSuffixes)
    if (ends_with(n, s)) return true;
  for (const char* s : kNumberedSuffixes) {
    size_t at = n.rfind(s);
    if (at != std::string_view::npos && all_digits(n.substr(at + std::string_view(s).size()))) return true;
  }
  return false;
}

// No leading, trailing or doubled underscore: C++ reserves `__` anywhere and `_X` (and `_x` at
// global scope), and the emitter's `_data`, `_2`, ... after a trailing one would make `__`.
bool underscores_are_plain(std::string_view n) {
  return !n.empty() && n.front() != '_' && n.back() != '_' && n.find("__") == std::string_view::npos;
}

// A name with other underscores: its words joined by single underscores, then the tag and the
// length of every underscore run, the leading and trailing one included, joined by `x`
// (`__init__` -> `init_py2x2`, `a__b` -> `a_b_py0x2x0`, `_1` -> `n_1_py1x0`). The counts give
// the runs back, so the name can be read back; `n_` keeps a name from starting with a digit
// (or from being empty), and its extra word tells it apart from a word of the name.
std::string escape_underscores(std::string_view n) {
  std::vector<std::string_view> words;
  std::vector<size_t> runs;
  size_t i = 0;
  while (true) {
    size_t run = 0;
    while (i < n.size() && n[i] == '_') ++run, ++i;
    runs.push_back(run);
    if (i == n.size()) break;
    size_t start = i;
    while (i < n.size() && n[i] != '_') ++i;
    words.push_back(n.substr(start, i - start));
  }
  std::string out = fmt::format("{}", fmt::join(words, "_"));
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = out.empty() ? "n" : "n_" + out;
  return fmt::format("{}{}{}", out, kTag, fmt::join(runs, "x"));
}

}  // namespace

bool is_reserved_cpp_name(std::string_view name) {
  static const std::set<std::string_view, std::less<>> names = [] {
    std::set<std::string_view, std::less<>> s(std::begin(kToolkitNames), std::end(kToolkitNames));
    s.insert(std::begin(kEmitterNames), std::end(kEmitterNames));
    s.insert("detail");  // the runtime's inner namespace: declared, but selects no header
    return s;
  }();
  return names.count(name) > 0 || is_runtime_name(name);
}

bool cpp_name_is_free(std::string_view name) {
  // An escaped name is free although it may begin as the emitter's do (`kThreads_py`).
  return underscores_are_plain(name) && !is_reserved_cpp_name(name) && (!in_emitter_space(name) || ends_with_tag(name));
}

std::string cpp_name(std::string_view python_name) {
  if (!underscores_are_plain(python_name)) return escape_underscores(python_name);
  // A name that ends as an escaped one does is escaped too, so that no two names meet.
  if (cpp_name_is_free(python_name) && !ends_with_tag(python_name)) return std::string(python_name);
  return fmt::format("{}{}", python_name, kTag);
}

ir::Function with_cpp_names(const ir::Function& fn) {
  ir::Function out = fn;
  out.kernel_name = cpp_name(fn.kernel_name);
  out.spec_name = cpp_name(fn.spec_name);
  for (auto& a : out.arrays) a.name = cpp_name(a.name);
  for (auto& s : out.scalars) s.name = cpp_name(s.name);
  for (auto& v : out.values)
    if (!v.name.empty()) v.name = cpp_name(v.name);
  return out;
}

}  // namespace tile2cu
