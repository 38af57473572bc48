// `tile2cu --vendor DIR`: a self-contained folder holding the generated .cu and .cuh and a copy
// of exactly the runtime headers they include, so `nvcc -I DIR -c DIR/<name>.cu` builds with no
// tile2cu installed.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tile2cu {

// The runtime headers ("tile2cu/host.hpp", ...) that `sources` include, directly or through
// other runtime headers, sorted. A runtime include with no embedded header is reported in
// `missing`.
std::vector<std::string> runtime_headers_needed(const std::vector<std::string>& sources,
                                                std::vector<std::string>& missing);

// The text of an embedded runtime header, or nullptr.
std::optional<std::string_view> find_runtime_header(const std::string& name);

}  // namespace tile2cu
