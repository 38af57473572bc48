// Checks the invariants every pass may rely on; throws std::logic_error naming the op.
// A failure is a transpiler bug, never a user error, so it is reported as such.
#pragma once

#include "ir/ir.hpp"

namespace tile2cu::ir {

void verify(const Function& fn);

}  // namespace tile2cu::ir
