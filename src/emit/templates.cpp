#include "emit/templates.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace tile2cu {

std::string render(std::string_view template_name, const std::map<std::string, std::string>& holes) {
  std::string_view text = embedded_template(template_name);
  if (text.empty()) throw std::logic_error(fmt::format("no template named '{}'", template_name));
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t open = text.find("{{", pos);
    if (open == std::string_view::npos) break;
    size_t close = text.find("}}", open);
    if (close == std::string_view::npos) break;
    out.append(text.substr(pos, open - pos));
    std::string key(text.substr(open + 2, close - open - 2));
    auto it = holes.find(key);
    if (it == holes.end())
      throw std::logic_error(fmt::format("template '{}' has a hole '{}' nobody fills", template_name, key));
    out += it->second;
    pos = close + 2;
  }
  out.append(text.substr(pos));
  return out;
}

}  // namespace tile2cu
