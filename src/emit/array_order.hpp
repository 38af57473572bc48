// Block barriers that keep one array's accesses in program order (spec h.2).
//
// cuTile runs a block's memory operations on one array as if in program order. The generated
// code spreads a tile over the CTA's threads, so a load may read elements that other threads
// stored a moment before (or a store may overwrite what another thread has yet to read): such a
// pair needs a __syncthreads() between them. No barrier is needed when
//   - the two ops name different arrays (cuTile assumes array parameters do not alias; items of
//     one list and views of one array may, so they count as one array),
//   - both only read,
//   - both are tile loads / stores of one array with the same tile shape and order: a shape has
//     one layout, so every element of the array is always handled by the same thread,
//   - both are atomics of one commutative kind (add, max, min, and, or, xor),
//   - a block-wide side effect lies between them (once_per_block waits for every thread on
//     both sides: scalar atomics, and scalar gathers of arrays the kernel writes).
// A loop's body is walked until what is pending at its top stops growing (the end of one
// iteration meets the start of the next); pathological nests fall back to assuming every access
// of the body pending there, which adds barriers but never drops one.
#pragma once

#include <map>
#include <string>

#include "emit/broadcast_load.hpp"
#include "ir/ir.hpp"

namespace tile2cu {

// Ops that need a barrier right before them, each with the array whose earlier accesses by
// other threads it must wait for.
using ArrayBarriers = std::map<const ir::Op*, std::string>;

ArrayBarriers find_array_barriers(const ir::Function& fn, const BroadcastLoads& broadcast_loads);

}  // namespace tile2cu
