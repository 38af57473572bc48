// The C++ for ct.print / ct.printf (ir Print) and ct.assert_ (ir Assert): thread 0 prints for
// the whole block; tiles go through shared memory first.
#pragma once

#include <string>
#include <vector>

#include "ir/ir.hpp"

namespace tile2cu {

struct PrintedValue {
  std::string expr;   // C++ expression of the value
  ir::TileType type;
  std::string shape;  // Shape<...> of a tile (empty for a scalar)
};

// Lines (without indentation) for a Print op's text and values.
std::vector<std::string> print_statement(const std::vector<std::string>& text,
                                         const std::vector<PrintedValue>& values);

// Shared memory a Print op needs: its tiles, staged side by side (16-byte aligned each).
size_t print_scratch_bytes(const ir::Function& fn, const ir::Op& op);

// A C++ string literal for `s`.
std::string cpp_string_literal(const std::string& s);

}  // namespace tile2cu
