// Common-subexpression elimination of tile exchanges: an op that moves a tile's elements between
// threads (broadcast, reshape, permute, reduce, scan, ...: shared memory and barriers, which nvcc
// cannot share) and repeats an earlier one that dominates it is dropped, and its uses read the
// earlier result. "Repeats" is decided by value numbering: operands are compared by value, so
// `ct.sum(v * v)` written twice is one reduction even though each `v * v` stays where it was
// written (arithmetic in registers is nvcc's to share, and the code keeps mirroring the Python).
// In structured control flow an op dominates the rest of its block and the regions nested
// there, so the table of exchanges is scoped by block.
#pragma once

#include "ir/ir.hpp"

namespace tile2cu::ir {

void eliminate_common_subexpressions(Function& fn);

}  // namespace tile2cu::ir
