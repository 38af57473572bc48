// Which runtime headers a generated file needs: follow #include lines from the .cu/.cuh through
// the embedded runtime headers.
#include "cli/vendor.hpp"

#include <algorithm>
#include <set>

#include "cli/runtime_headers.hpp"

namespace tile2cu {

namespace {

struct Include {
  std::string name;
  bool quoted;
};

// `#include "x"` / `#include <x>` lines, in order. Comments and strings elsewhere are ignored:
// only a line whose first token is the directive counts.
std::vector<Include> includes_of(std::string_view text) {
  std::vector<Include> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    size_t i = line.find_first_not_of(" \t");
    if (i == std::string_view::npos || line[i] != '#') continue;
    i = line.find_first_not_of(" \t", i + 1);
    if (i == std::string_view::npos || line.substr(i, 7) != "include") continue;
    i = line.find_first_not_of(" \t", i + 7);
    if (i == std::string_view::npos || (line[i] != '"' && line[i] != '<')) continue;
    char close = line[i] == '"' ? '"' : '>';
    size_t j = line.find(close, i + 1);
    if (j == std::string_view::npos) continue;
    out.push_back({std::string(line.substr(i + 1, j - i - 1)), close == '"'});
  }
  return out;
}

std::string directory_of(const std::string& name) {
  size_t slash = name.rfind('/');
  return slash == std::string::npos ? std::string() : name.substr(0, slash + 1);
}

}  // namespace

std::optional<std::string_view> find_runtime_header(const std::string& name) {
  for (const EmbeddedFile& f : embedded_runtime_headers())
    if (f.name == name) return f.text;
  return std::nullopt;
}

std::vector<std::string> runtime_headers_needed(const std::vector<std::string>& sources,
                                                std::vector<std::string>& missing) {
  std::set<std::string> found, missed;
  std::vector<std::string> work;
  auto visit = [&](std::string_view text, const std::string& from_dir) {
    for (const Include& inc : includes_of(text)) {
      std::string name;
      // A quoted include inside a runtime header is relative to that header's folder.
      if (inc.quoted && !from_dir.empty() && find_runtime_header(from_dir + inc.name))
        name = from_dir + inc.name;
      else if (find_runtime_header(inc.name))
        name = inc.name;
      else if (inc.name.rfind("tile2cu/", 0) == 0)
        missed.insert(inc.name);
      if (!name.empty() && found.insert(name).second) work.push_back(name);
    }
  };
  for (const std::string& s : sources) visit(s, "");
  while (!work.empty()) {
    std::string name = work.back();
    work.pop_back();
    visit(*find_runtime_header(name), directory_of(name));
  }
  missing.assign(missed.begin(), missed.end());
  return {found.begin(), found.end()};
}

}  // namespace tile2cu
