// Looking for generated text in unit tests: whether a snippet occurs, and how often.
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

}  // namespace tile2cu
