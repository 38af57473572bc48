// Broadcasts of loaded side tiles that read memory directly (runtime/tile2cu/broadcast_load.cuh).
//
// `ct.load(bias, ...)[None, :]` broadcast over a big tile goes load -> reshape -> broadcast_to.
// Through registers each layout change is a shared-memory round trip with two barriers, and
// the loads after it wait for them. Instead every thread reads the side-tile elements its own
// slots need (and casts them, for astype links, which commute with the broadcast). That is done
// when each link of the chain load -> (reshape | astype)* -> broadcast has that one use, all in one block, the load walks the array's axes in order, and nothing between the
// load and the broadcast can write memory (only ops known to be pure, or loads, lie between).
//
// Reading from memory costs per run (address math, a repeated L1 read) where the register path
// costs per CTA (two barriers per round trip), so it pays only when a kernel's side tiles would
// take several round trips. Measured on the H200 (docs/perf-notes.md): batched_affine, three
// round trips, got faster (bf16 0.149 -> 0.098 ms); row_bias_scale, one round trip, got slower
// (0.114 -> 0.122 ms). So kernels whose candidates would need fewer than two keep the register path.
#pragma once

#include <map>
#include <functional>
#include <set>
#include <vector>

#include "ir/ir.hpp"

namespace tile2cu {

struct FoldedBroadcast {
  const ir::Op* load = nullptr;
  std::vector<const ir::Op*> converts;  // astype links, innermost first
};

struct BroadcastLoads {
  std::map<ir::ValueId, FoldedBroadcast> folded;  // broadcast result -> what it reads
  std::set<ir::ValueId> absorbed;               // load and reshape results that need no code
};

// `same_placement(a, b)`: a reshape from shape a to b keeps every element in its thread and slot.
BroadcastLoads find_broadcast_loads(const ir::Function& fn,
                                    const std::function<bool(const ir::Shape&, const ir::Shape&)>& same_placement);

}  // namespace tile2cu
