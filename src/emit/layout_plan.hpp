// How a specialization's tiles map onto one CTA: the thread count, and for each tile shape
// a blocked layout (runs of `vec` consecutive elements dealt round-robin to the threads).
// Decided here, printed as named constants, so a reader of the generated code sees them.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "emit/array_order.hpp"
#include "emit/broadcast_load.hpp"
#include "emit/launch_whole_tiles.hpp"
#include "emit/whole_tile_split.hpp"
#include "ir/ir.hpp"

namespace tile2cu {

struct TileLayout {
  std::string name;  // "Layout_64x128"
  int vec = 1;       // elements per run
};

// Scratch above this many bytes becomes dynamic shared memory (the launcher opts in): a static
// __shared__ array may hold 48 KiB in all, and the runtime's CUB temporaries (reduce.cuh,
// scan.cuh) are static too.
inline constexpr size_t kMaxStaticScratchBytes = 40 * 1024;

struct LayoutPlan {
  int threads = 32;  // threads of one block
  // Blocks one CTA runs side by side, `threads` threads each (1: one block per CTA). Kernels
  // whose tiles are small and whose threads never exchange data run many blocks per CTA, so
  // that small tiles do not mean tiny CTAs and a launch-bound grid (see small_tile_blocks).
  int blocks_per_cta = 1;
  // CTAs per SM that __launch_bounds__ asks the register allocator for (0: no ask). A kernel's
  // @ct.kernel(occupancy=N) takes precedence.
  int min_blocks_per_sm = 0;
  // Threads and CTAs per SM of the launcher's copy for whole tiles, where it differs from the
  // checked copy (0: the same as threads and min_blocks_per_sm). Only with launch_whole.
  int whole_copy_threads = 0;
  int whole_copy_min_blocks_per_sm = 0;
  std::map<ir::Shape, TileLayout> layouts;
  size_t smem_bytes = 0;  // scratch for ops that move elements between threads
  size_t hopper_smem_bytes = 0;  // on sm_90 and up, when a wgmma main loop needs more (0: same)
  BroadcastLoads broadcast_loads;  // broadcasts that read their side tile from memory
  WholeTileSplit whole_tile_split;  // accesses whose whole-tile test runs once (whole_tile_split.hpp)
  std::vector<LaunchWholeAccess> launch_whole;  // ... or once per launch (launch_whole_tiles.hpp)
  ArrayBarriers array_barriers;  // barriers that keep one array's accesses in order (array_order.hpp)

  const TileLayout& layout(const ir::Shape& shape) const { return layouts.at(shape); }
  // Whether a reshape between two shapes keeps every element in the same thread and slot.
  bool same_placement(const ir::Shape& a, const ir::Shape& b) const;
};

LayoutPlan plan_layouts(const ir::Function& fn);

}  // namespace tile2cu
