#include "emit/runtime_includes.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

namespace tile2cu {

namespace {

struct RuntimeName {
  std::string_view name;
  std::string_view header;
};

// Sorted by name, then header.
constexpr RuntimeName kRuntimeNames[] = {
#include "emit/runtime_names.inc"
};

// What every generated file includes whatever it names: the tile and array types and their
// element types, loads and stores, the operators and conversions on tiles, and host.hpp for the
// launchers. Generated code also relies on what these include (<type_traits>, <cstdint>,
// <limits>, <vector>) without naming a runtime name.
constexpr std::string_view kCoreHeaders[] = {
    "tile2cu/array.cuh", "tile2cu/elementwise.cuh", "tile2cu/host.hpp", "tile2cu/layout.cuh",
    "tile2cu/memory.cuh", "tile2cu/tile.cuh",       "tile2cu/types.cuh",
};

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// C++ punctuators that can name a namespace-scope operator or separate a qualified name, longest
// first (a lone character otherwise).
constexpr std::string_view kPunctuators[] = {"<<=", ">>=", "->", "::", "<<", ">>", "<=", ">=",
                                             "==",  "!=",  "&&", "||", "++", "--", "+=", "-=",
                                             "*=",  "/=",  "%=", "&=", "|=", "^="};

// Calls `use(token)` for each identifier and operator token of `code` that can name a runtime
// name at namespace scope.
template <class Use>
void scan_names(std::string_view code, Use use) {
  std::string_view prev, prev2;  // the two tokens before this one
  size_t i = 0;
  bool line_start = true;
  auto step = [&](std::string_view tok) {
    prev2 = prev;
    prev = tok;
  };
  while (i < code.size()) {
    char c = code[i];
    if (c == '\n') {
      line_start = true;
      ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
      continue;
    }
    if (line_start && c == '#') {  // a preprocessor line (#include, #line, #pragma)
      while (i < code.size() && code[i] != '\n') i += code[i] == '\\' ? 2 : 1;
      continue;
    }
    line_start = false;
    if (code.substr(i, 2) == "//") {
      i = code.find('\n', i);
      if (i == std::string_view::npos) break;
      continue;
    }
    if (code.substr(i, 2) == "/*") {
      size_t end = code.find("*/", i + 2);
      i = end == std::string_view::npos ? code.size() : end + 2;
      continue;
    }
    if (c == '"' || c == '\'') {
      size_t j = i + 1;
      while (j < code.size() && code[j] != c && code[j] != '\n') j += code[j] == '\\' ? 2 : 1;
      i = j + 1;
      step("\"\"");
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && i + 1 < code.size() && std::isdigit(static_cast<unsigned char>(code[i + 1])))) {
      size_t j = i + 1;  // a pp-number: 1.5e-3f, 0x1Fu (an exponent's sign belongs to it)
      while (j < code.size() && (is_ident_char(code[j]) || code[j] == '.' || code[j] == '\'' ||
                                 ((code[j] == '+' || code[j] == '-') &&
                                  std::strchr("eEpP", code[j - 1]) != nullptr)))
        ++j;
      step(code.substr(i, j - i));
      i = j;
      continue;
    }
    if (is_ident_start(c)) {
      size_t j = i;
      while (j < code.size() && is_ident_char(code[j])) ++j;
      std::string_view ident = code.substr(i, j - i);
      const bool member = prev == "." || prev == "->";
      const bool qualified_elsewhere = prev == "::" && prev2 != "tile2cu";
      if (!member && !qualified_elsewhere) use(ident);
      step(ident);
      i = j;
      continue;
    }
    std::string_view punct = code.substr(i, 1);
    for (std::string_view p : kPunctuators)
      if (code.substr(i, p.size()) == p) {
        punct = p;
        break;
      }
    use(std::string("operator") + std::string(punct));
    step(punct);
    i += punct.size();
  }
}

// The entries of kRuntimeNames for `name` (one per header declaring it).
std::pair<const RuntimeName*, const RuntimeName*> entries_of(std::string_view name) {
  return std::equal_range(std::begin(kRuntimeNames), std::end(kRuntimeNames), RuntimeName{name, {}},
                          [](const RuntimeName& a, const RuntimeName& b) { return a.name < b.name; });
}

}  // namespace

bool is_runtime_name(std::string_view name) {
  auto [first, last] = entries_of(name);
  return first != last;
}

std::vector<std::string> runtime_includes(std::string_view code) {
  std::set<std::string_view> headers(std::begin(kCoreHeaders), std::end(kCoreHeaders));
  std::set<std::string, std::less<>> seen;
  scan_names(code, [&](std::string_view name) {
    if (!seen.emplace(name).second) return;
    auto [first, last] = entries_of(name);
    for (auto it = first; it != last; ++it) headers.insert(it->header);
  });
  return {headers.begin(), headers.end()};
}

}  // namespace tile2cu
