// Tile accesses whose whole-tile test runs once per block (runtime/tile2cu/memory.cuh:
// with_whole_tiles, with_whole_tiles_outlined).
//
// Two kinds of split, chosen by the layout plan:
// - Fixed tiles (every kernel): a load at a literal tile index of a kernel parameter (a weight or
//   bias vector at index 0) reads the same tile in every block. Their tests run once, right before
//   the first statement that makes such a load, and the rest of the body is compiled for both
//   answers, so the usual copy has no checked path for those loads. A checked path costs even
//   when it never runs: a load's two paths join on the tile's values before the next load is
//   issued. Measured on the H100 (docs/perf-notes.md, round 8): layer norm's w and b loads,
//   0.993x -> 0.998x of Triton.
// - Block-known tiles (row kernels that load three big 16-bit tiles and ask for a register cap
//   with occupancy=, layout_plan.cpp): every load and store whose tile index the block knows
//   before its first access (literals, the block id, array extents, scalar parameters, scalars
//   computed before that access) is tested at once, and the checked copy runs out of line, so
//   that its registers do not count against the fast copy's. Layer norm bf16 at 8192 columns,
//   occupancy=4: the fast copy fits 64 registers with no spill (round 11). Elsewhere this costs:
//   with every load of the fast copy unconditional, more of them are in flight and the kernel
//   takes more registers (rope f32: 64 -> 74, 0.86x); rows that never take the fast copy pay
//   for the outlined one (2-14 %).
//
// Kernels with a GEMM or attention main loop are left alone: their bodies are large, and their
// side accesses are not what they wait on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "emit/broadcast_load.hpp"
#include "ir/ir.hpp"

namespace tile2cu {

struct WholeTileSplit {
  // Index in fn.body.ops of the first statement compiled twice; at least fn.body.ops.size() when
  // the kernel has no split.
  size_t first_statement = SIZE_MAX;
  // The accesses tested once, in program order (none when there is no split).
  std::vector<const ir::Op*> accesses;
  bool block_known_tiles = false;  // the second kind above; the checked copy runs out of line
  // Compares that the tests prove all true in the fast copy: `arange(0, TN) < a.shape[d]` where a
  // tested access covers at least TN elements of a's axis d (a whole tile lies inside the array).
  // The ragged-row mask of layer norm, a select per element the fast copy need not make.
  std::vector<const ir::Op*> masks_true_when_whole;
};

// How many operands of a tile load or store are its tile index (a store's last is the tile).
inline size_t tile_index_count(const ir::Op& op) {
  return op.kind == ir::OpKind::Store ? op.operands.size() - 1 : op.operands.size();
}

// The tile a load reads or a store writes (the value whose layout the access moves).
inline ir::ValueId accessed_tile(const ir::Op& op) {
  return op.kind == ir::OpKind::Store ? op.operands.back() : op.results[0];
}

// The arrays that `accesses` touch, each once, in order, for a comment: "x", "x and y", "x, w and y".
std::string accessed_arrays(const ir::Function& fn, const std::vector<const ir::Op*>& accesses);

// Skipped: loads that a broadcast reads directly (`broadcast_loads`: not emitted as loads),
// accesses that never take the whole-tile path (`may_be_whole` false: a permuted last axis,
// threads owning no run), and views that may differ per block (list items, slices).
WholeTileSplit find_whole_tile_split(const ir::Function& fn, const BroadcastLoads& broadcast_loads,
                                     const std::function<bool(const ir::Op&)>& may_be_whole,
                                     bool block_known_tiles);

// The compares in statements first_statement.. of the body (and nested in them) that are all
// true wherever every one of `accesses` is whole: `arange(start, step) < a.shape[d]` (through
// reshapes and broadcasts, either way round) with every arange value below the extent that one
// of the accesses proves. Shared by the split (find_whole_tile_split) and the launcher's copy
// for whole tiles (launch_whole_tiles.hpp).
std::vector<const ir::Op*> masks_true_when_whole(const ir::Function& fn, size_t first_statement,
                                                 const std::vector<const ir::Op*>& accesses);

}  // namespace tile2cu
