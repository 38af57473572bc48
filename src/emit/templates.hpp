// The text skeletons of emitted files (templates/*.tmpl, compiled into the binary).
// A template holds `{{name}}` holes; render() fills them and refuses unknown ones.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace tile2cu {

std::string_view embedded_template(std::string_view name);  // generated from templates/
std::string render(std::string_view template_name, const std::map<std::string, std::string>& holes);

}  // namespace tile2cu
