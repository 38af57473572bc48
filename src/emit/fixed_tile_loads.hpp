// Tile loads that every block makes alike (runtime/tile2cu/memory.cuh: with_whole_tiles).
//
// A load at a literal tile index of a kernel parameter (a weight or bias vector at index 0)
// reads the same tile in every block (an Array.slice or list item need not). Their whole-tile
// tests (inside the array, aligned) run once, right before the first statement that makes such a
// load, and the rest of the body is compiled for both answers, so the usual copy has no checked
// path for those loads.
// A checked path costs even when it never runs: a load's two paths join on the tile's values
// before the next load is issued. Measured on the H100 (docs/perf-notes.md, round 8): layer
// norm's w and b loads, 0.993x -> 0.998x of Triton.
//
// Kernels with a GEMM or attention main loop are left alone: their bodies are large, and their
// side loads are not what they wait on.
#pragma once

#include <functional>
#include <vector>

#include "emit/broadcast_load.hpp"
#include "ir/ir.hpp"

namespace tile2cu {

// The loads, in program order (none when the kernel is left alone). Skipped: loads that a
// broadcast reads directly (`broadcast_loads`: not emitted as loads), and loads that never take
// the whole-tile path (`may_be_whole` false: a permuted last axis, threads owning no run).
std::vector<const ir::Op*> find_fixed_tile_loads(const ir::Function& fn, const BroadcastLoads& broadcast_loads,
                                                 const std::function<bool(const ir::Op&)>& may_be_whole);

}  // namespace tile2cu
