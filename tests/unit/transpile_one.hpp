// One kernel `def k(...)` (its body given after the decorator) transpiled for one signature, with
// the header named k.cuh: what most unit tests of generated code start from.
#pragma once

#include <string>

#include "tile2cu/tile2cu.hpp"

namespace tile2cu {

inline TranspileResult transpile_one(const std::string& body, const std::string& signature) {
  TranspileOptions options;
  options.signatures = {signature};
  options.header_name = "k.cuh";
  return transpile("k.py", "import cuda.tile as ct\n\n\n@ct.kernel\n" + body, options);
}

}  // namespace tile2cu
