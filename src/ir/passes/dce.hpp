// Dead-code elimination: drops operations whose results nobody reads and that have no effect
// (stores, control flow around stores, break/continue/return stay).
#pragma once

#include "ir/ir.hpp"

namespace tile2cu::ir {

void eliminate_dead_code(Function& fn);

}  // namespace tile2cu::ir
