// Broadcasts of loaded side tiles that read memory directly (runtime/tile2cu/broadcast_load.cuh).
//
// `ct.load(bias, ...)[None, :]` broadcast over a big tile goes load -> reshape -> broadcast_to.
// Through registers each layout change is a shared-memory round trip with two barriers, and
// the loads after it wait for them. Instead every thread reads the side-tile elements its own
// slots need (and casts them, for astype links, which commute with the broadcast). That is done
// when each link of the chain load -> (reshape | astype)* -> broadcast has that one use, all in one block, the load walks the array's axes in order, and nothing between the
// load and the broadcast can write memory (only ops known to be pure, or loads, lie between).
#pragma once

#include <map>
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

BroadcastLoads find_broadcast_loads(const ir::Function& fn);

}  // namespace tile2cu
