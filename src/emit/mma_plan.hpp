// Shared-memory needs of ct.mma as the runtime lowers it (runtime/tile2cu/mma.cuh, MmaPlan).
#pragma once

#include <cstddef>

#include "ir/ir.hpp"

namespace tile2cu {

// Bytes of scratch one Mma op stages its operands (and, on tensor cores, its accumulator) in.
size_t mma_smem_bytes(const ir::Function& fn, const ir::Op& mma);

}  // namespace tile2cu
