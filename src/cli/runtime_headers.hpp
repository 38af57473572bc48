// The runtime headers (runtime/tile2cu/*), compiled into the tile2cu binary at build time by
// cmake/embed_runtime.cmake, so `tile2cu --vendor` works wherever the binary is copied.
#pragma once

#include <span>
#include <string_view>

namespace tile2cu {

struct EmbeddedFile {
  std::string_view name;  // "tile2cu/layout.cuh": the path generated code includes it by
  std::string_view text;
};

std::span<const EmbeddedFile> embedded_runtime_headers();

}  // namespace tile2cu
