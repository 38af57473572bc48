// Moves loop-invariant data movement out of loops. A broadcast, reshape or permute of a tile
// hands elements between threads through shared memory, with barriers; inside a loop that runs
// on every iteration even when its operand was computed before the loop (`t - mean` with `mean`
// a row vector). Hoisted in front of the loop, with the invariant arithmetic feeding it, it runs
// once. (nvcc hoists invariant register arithmetic by itself, but not an exchange through shared
// memory, so only those exchanges and what they read are moved; the rest stays where it reads
// best.)
#pragma once

#include "ir/ir.hpp"

namespace tile2cu::ir {

void hoist_loop_invariants(Function& fn);

}  // namespace tile2cu::ir
