// Looking for generated text in unit tests: whether a snippet occurs, how often, and one
// specialization's part of a .cu.
#pragma once

#include <cstddef>
#include <string>

namespace tile2cu {

inline bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// Occurrences of `needle`, overlapping ones counted.
inline size_t count(const std::string& haystack, const std::string& needle) {
  size_t n = 0;
  for (size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
  return n;
}

// One specialization's kernel and launcher: from its namespace (the last one opened, after any
// forward part) to its C entry point; empty when either is missing.
inline std::string spec_text(const std::string& cu, const std::string& spec) {
  const size_t from = cu.rfind("namespace " + spec + " {");
  const size_t to = from == std::string::npos ? from : cu.find("extern \"C\" int tile2cu_" + spec, from);
  return to == std::string::npos ? "" : cu.substr(from, to - from);
}

}  // namespace tile2cu
