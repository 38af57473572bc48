// The stable text form of Tile IR (`--emit=ir`, golden tests).
#pragma once

#include <string>

#include "ir/ir.hpp"

namespace tile2cu::ir {

std::string print_function(const Function& fn);
std::string print_module(const Module& module);
std::string literal_string(const Literal& lit);

}  // namespace tile2cu::ir
