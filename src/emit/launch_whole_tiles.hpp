// Tiles the launcher can prove whole for every block. An access whose tile index is made only of
// literals and block indices (`ct.load(x, index=(ct.bid(0), 0), ...)`) touches, over the grid, a
// range of tiles the host knows before the launch: from the array's shape, strides and base
// address it decides whether every one of them lies inside the array, aligned for vector
// accesses (tile2cu::whole_in_every_block, memory.cuh). The kernel is then compiled twice,
// `template <bool kTilesWhole>`: with true, those accesses have no checked path at all (no
// test, no branch, none of its registers, no join), and the launcher picks the copy at run time.
// As FlashAttention's Is_even_MN, the ragged case keeps the checked code and loses nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "emit/broadcast_load.hpp"
#include "ir/ir.hpp"

namespace tile2cu {

struct LaunchIndexTerm {
  int block_axis = -1;   // ct.bid(block_axis); -1: the literal below
  int64_t literal = 0;
};

struct LaunchWholeAccess {
  const ir::Op* access = nullptr;
  std::vector<LaunchIndexTerm> index;  // one per tile axis
};

// Loads and stores of kernel parameter arrays (not views or list items) in identity order that
// may take the whole-tile path (`may_be_whole`), with such an index. None in kernels with a
// GEMM or attention main loop (their operands move through their own pipelines) or with loads
// a broadcast reads directly (`broadcast_loads`).
std::vector<LaunchWholeAccess> find_launch_whole_accesses(const ir::Function& fn, const BroadcastLoads& broadcast_loads,
                                                          const std::function<bool(const ir::Op&)>& may_be_whole);

}  // namespace tile2cu
