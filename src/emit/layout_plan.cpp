#include "emit/layout_plan.hpp"

#include "emit/element_memory_call.hpp"
#include "emit/mma_plan.hpp"
#include "emit/tensor_maps.hpp"
#include "ir/passes/attention_loop.hpp"
#include "ir/passes/gemm_loop.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "emit/emit_debug.hpp"

namespace tile2cu {

using ir::for_each_op;

namespace {

constexpr int kMaxThreads = 256;
constexpr int kMinThreads = 32;
constexpr int kFullSmThreads = 64;
constexpr int kVectorBytes = 16;
// Blocks per SM asked for big tiles (see "Blocks per SM for big tiles" below).
constexpr int kBigTileBlocksPerSm = 3;
constexpr int kBigTileMinLoads = 3;
constexpr int64_t kBigTileElemsPerThread = 32;
// The launcher's copy for whole big tiles (see "The copy for whole big tiles" below).
constexpr int kWholeCopyThreads = 512;
constexpr int kWholeCopyBlocksPerSm = 4;
constexpr int kWholeCopyManyLoadsBlocksPerSm = 3;
constexpr int kWholeCopyManyLoads = 2;

size_t align16(size_t bytes) { return (bytes + 15) / 16 * 16; }

// Several blocks per CTA. A block whose biggest tile is at most this many 16-byte runs gets one
// thread per run, and blocks share CTAs of kSmallTileCtaThreads threads. Each block's threads
// then stay a group of their own, a part of one warp: nothing in the kernel may wait for, or
// hand data to, the other threads of its CTA. So only kernels made of the ops below take this
// path: element-wise work, and the moves of elements between a block's threads (reductions,
// scans, broadcasts, reshapes, permutes, cat, extract, insert) whose runtime functions wait on
// the block's lanes alone (BlockedLayout::sync) and use the block's own scratch. Not the mma
// (its fragments span warps) nor a once-per-block side effect (one thread of the CTA acts).
constexpr int kSmallTileMaxRuns = 32;
constexpr int kSmallTileCtaThreads = 256;

bool threads_work_alone(const ir::Function& fn, const ir::Op& op) {
  switch (op.kind) {
    case ir::OpKind::Constant: case ir::OpKind::BlockId: case ir::OpKind::NumBlocks:
    case ir::OpKind::ScalarParam: case ir::OpKind::ArrayDim: case ir::OpKind::ArrayStride:
    case ir::OpKind::Binary: case ir::OpKind::Compare: case ir::OpKind::Unary: case ir::OpKind::Convert:
    case ir::OpKind::Select: case ir::OpKind::Bitcast: case ir::OpKind::Arange: case ir::OpKind::Load:
    case ir::OpKind::For: case ir::OpKind::If: case ir::OpKind::While: case ir::OpKind::Yield:
    case ir::OpKind::Condition: case ir::OpKind::Break: case ir::OpKind::Continue: case ir::OpKind::Return:
    case ir::OpKind::ListItem: case ir::OpKind::ListLength: case ir::OpKind::ArraySlice: case ir::OpKind::ArraySelect:
      return true;
    case ir::OpKind::Reduce: case ir::OpKind::Scan: case ir::OpKind::Broadcast: case ir::OpKind::Reshape:
    case ir::OpKind::Permute: case ir::OpKind::Cat: case ir::OpKind::Extract: case ir::OpKind::Insert:
    case ir::OpKind::Reinterpret:
      return true;
    case ir::OpKind::Store:  // a one-element store is a block's side effect, done once
      return !op.tile_shape.empty();
    case ir::OpKind::Gather: case ir::OpKind::Scatter: case ir::OpKind::Atomic:
      return !is_block_uniform_effect(fn, op);
    default:
      return false;
  }
}

// Threads per block when the kernel runs several blocks per CTA, or 0 when it does not: one
// thread per 16-byte run of its biggest tile (`max_runs` at full width), when that is at most a
// warp and every op lets threads work alone.
int small_tile_threads(const ir::Function& fn, int64_t max_runs) {
  if (max_runs > kSmallTileMaxRuns) return 0;
  bool alone = true;
  for_each_op(fn.body, [&](const ir::Op& op) { alone = alone && threads_work_alone(fn, op); });
  return alone ? static_cast<int>(max_runs) : 0;
}

// Bytes of one element a reduction or scan carries: its operand's dtype, or for a combiner over N
// operands (a tuple of tiles) tile2cu::Values<T0, ..., TN-1> (runtime/tile2cu/values.cuh), laid
// out as C++ lays out that nesting: `first`, then the rest as one member, aligned.
size_t carried_element_bytes(const ir::Function& fn, const ir::Op& op) {
  size_t size = 0, align = 1;
  for (size_t i = op.operands.size(); i-- > 0;) {  // from the innermost Values<TN-1> out
    const size_t b = static_cast<size_t>(dtype_bytes(fn.type(op.operands[i]).dtype));
    if (size == 0) {
      size = align = b;
      continue;
    }
    const size_t rest_at = (b + align - 1) / align * align;
    align = std::max(align, b);
    size = (rest_at + size + align - 1) / align * align;
  }
  return size;
}

// Mirrors tile2cu::reduce_smem_bytes (runtime/tile2cu/reduce.cuh): the values (or run partials)
// of the source, one per output, and one per warp; argmax/argmin carry an int32 index too.
size_t reduce_scratch_bytes(const ir::Function& fn, const ir::Op& op, int threads) {
  const ir::TileType& src = fn.type(op.operands[0]);
  size_t value = carried_element_bytes(fn, op);
  if (op.arg) value = value <= 4 ? 8 : 16;
  // reduce_all (a scalar result, argmax/argmin's value and index included): one value per warp.
  // A block of part of a warp reduces in registers, but the call still names its scratch, so it
  // gets one value's worth.
  if (fn.type(op.results[0]).is_scalar())
    return align16(static_cast<size_t>(std::max(threads / 32, 1)) * value);
  size_t outputs = static_cast<size_t>(ir::shape_elements(fn.type(op.results[0]).shape));
  return align16(static_cast<size_t>(ir::shape_elements(src.shape)) * value) + align16(outputs * value) +
         align16(static_cast<size_t>(threads / 32) * value);
}

// Mirrors the *_smem_bytes rules of runtime/tile2cu/scan.cuh and shape.cuh.
size_t shape_op_scratch_bytes(const ir::Function& fn, const ir::Op& op, int threads) {
  switch (op.kind) {
    case ir::OpKind::Scan: case ir::OpKind::Permute: case ir::OpKind::Cat: case ir::OpKind::Extract:
    case ir::OpKind::Insert: case ir::OpKind::Reinterpret:
      break;
    default:
      return 0;
  }
  const ir::TileType& src = fn.type(op.operands[0]);
  const size_t bytes = op.kind == ir::OpKind::Scan ? carried_element_bytes(fn, op) : static_cast<size_t>(dtype_bytes(src.dtype));
  const size_t elems = static_cast<size_t>(ir::shape_elements(src.shape));
  switch (op.kind) {
    case ir::OpKind::Scan:  // one padding element per 32, then one total per warp
      return align16((elems + elems / 32) * bytes) + align16(static_cast<size_t>(threads / 32) * bytes);
    case ir::OpKind::Permute: {  // one padding element per source row (at least 32 elements)
      size_t pad_every = std::max<size_t>(32, static_cast<size_t>(src.shape.back()));
      return (elems + elems / pad_every) * bytes;
    }
    case ir::OpKind::Cat:
      return (elems + static_cast<size_t>(ir::shape_elements(fn.type(op.operands[1]).shape))) * bytes;
    case ir::OpKind::Extract:  // the sub-tile (one element for a scalar)
      return static_cast<size_t>(ir::shape_elements(fn.type(op.results[0]).shape)) * bytes;
    case ir::OpKind::Insert:  // a scalar value is written by its owner, in registers
      return fn.type(op.operands[1]).is_scalar() ? 0 : elems * bytes;
    case ir::OpKind::Reinterpret:
      return elems * bytes;
    default:
      return 0;
  }
}

}  // namespace

bool LayoutPlan::same_placement(const ir::Shape& a, const ir::Shape& b) const {
  if (a.empty() || b.empty()) return false;
  return ir::shape_elements(a) == ir::shape_elements(b) && layout(a).vec == layout(b).vec;
}

LayoutPlan plan_layouts(const ir::Function& fn) {
  LayoutPlan plan;
  // Only values some op still defines get a layout (a rewritten loop's body is gone).
  std::vector<const ir::ValueInfo*> live;
  {
    std::vector<bool> seen(fn.values.size(), false);
    std::function<void(const ir::Block&)> mark = [&](const ir::Block& b) {
      for (ir::ValueId v : b.args) seen[v] = true;
      for (const ir::Op& op : b.ops) {
        for (ir::ValueId v : op.results) seen[v] = true;
        for (const ir::Block& r : op.regions) mark(r);
      }
    };
    mark(fn.body);
    for (size_t v = 0; v < fn.values.size(); ++v)
      if (seen[v]) live.push_back(&fn.values[v]);
  }
  // The widest element moved to or from memory by the biggest tiles sets the run length: a run
  // of it is one 16-byte access. Narrower dtypes in the same kernel keep the same runs (shorter
  // accesses, still contiguous across a warp), so casts stay inside a thread. Sizing runs by the
  // narrowest dtype instead would split every wide run into several accesses a warp apart and
  // leave fewer runs than threads; a small side tile (a bias row) does not set it.
  int64_t max_elems = 0;
  int max_bytes = 0;
  for_each_op(fn.body, [&](const ir::Op& op) {
    if (op.kind != ir::OpKind::Load && op.kind != ir::OpKind::Store && op.kind != ir::OpKind::GemmLoop) return;
    const int64_t elems = ir::shape_elements(op.tile_shape);
    const int bytes = dtype_bytes(fn.arrays[op.param].dtype);
    if (elems > max_elems) {
      max_elems = elems;
      max_bytes = bytes;
    } else if (elems == max_elems) {
      max_bytes = std::max(max_bytes, bytes);
    }
  });
  if (max_bytes == 0) max_bytes = 4;
  int vec = kVectorBytes / max_bytes;

  auto max_runs_for = [&](int run) {
    int64_t runs = 1;
    for (const ir::ValueInfo* vp : live) {
      const ir::ValueInfo& v = *vp;
      if (v.type.is_scalar()) continue;
      int shape_vec = static_cast<int>(std::min<int64_t>(run, v.type.shape.back()));
      runs = std::max(runs, ir::shape_elements(v.type.shape) / shape_vec);
    }
    return runs;
  };
  if (int threads = small_tile_threads(fn, max_runs_for(vec)); threads > 0) {
    plan.threads = threads;
    plan.blocks_per_cta = kSmallTileCtaThreads / threads;
  } else {
    // An SM holds at most 32 CTAs, so CTAs under 2048 / 32 = 64 threads leave it half empty: a
    // small tile gets shorter runs (narrower accesses, still coalesced) until it has 64 of them.
    while (vec > 1 && max_runs_for(vec) < kFullSmThreads) vec /= 2;
    const int64_t max_runs = max_runs_for(vec);
    plan.threads = static_cast<int>(std::clamp<int64_t>(max_runs, kMinThreads, kMaxThreads));
  }
  // A flash-attention main loop gives each warp 16 query rows (or a multiple): it sets the CTA.
  for_each_op(fn.body, [&](const ir::Op& op) {
    if (op.kind == ir::OpKind::AttentionLoop) plan.threads = ir::attention_threads(fn, op);
  });

  for (const ir::ValueInfo* vp : live) {
    const ir::Shape& s = vp->type.shape;
    if (s.empty() || plan.layouts.count(s)) continue;
    TileLayout l;
    l.name = fmt::format("Layout_{}", fmt::join(s, "x"));
    l.vec = static_cast<int>(std::min<int64_t>(vec, s.back()));
    plan.layouts[s] = l;
  }

  plan.broadcast_loads = find_broadcast_loads(
      fn, [&](const ir::Shape& a, const ir::Shape& b) { return plan.same_placement(a, b); });
  // As tile2cu::detail::may_be_whole (memory.cuh) decides it.
  auto may_be_whole = [&](const ir::Op& access) {
    int64_t runs = ir::shape_elements(access.tile_shape) / plan.layout(access.tile_shape).vec;
    bool last_axis_in_place = access.order.empty() || access.order.back() == static_cast<int>(access.order.size()) - 1;
    return last_axis_in_place && runs % plan.threads == 0;
  };
  plan.array_barriers = find_array_barriers(fn, plan.broadcast_loads);
  // Blocks per SM for big tiles. Registers, not threads, bound how many blocks an SM keeps in
  // flight, and every thread pays a fixed register overhead (indices, addresses, reduction
  // temporaries) besides its elements. When 256 threads each hold 32 elements of the biggest tile
  // and the kernel loads three or more tiles of that size (x, w and b of layer norm, held at
  // once), ptxas left alone takes registers for 2 blocks of 256 threads per SM: too few rows in
  // flight to keep memory busy. __launch_bounds__(256, 3) caps them at 80 (a few bytes of spill at
  // most): layer norm 0.83x -> 0.99x Triton on the H100 (docs/perf-notes.md, round 7).
  // A cap the kernel asks for itself (@ct.kernel(occupancy=4)) goes further when those tiles are
  // 16-bit: then the block-known tiles' tests run once and the checked copy runs out of line
  // (whole_tile_split.hpp), so the fast copy meets the cap with no spill. Layer norm bf16 at 8192
  // columns, occupancy=4: 0.875x -> 0.989x Triton on the H200, 0.997x -> 0.992x on the H100; but
  // rows that never take the fast copy (N < TN) run the outlined copy, 6-14 % slower (round 11).
  // That trade is the kernel author's to make, so the split follows the request, not a guess.
  // f32 tiles of this size hold 32 registers each, and mma kernels size their warps themselves.
  bool has_mma = false;
  int64_t biggest = 0;
  for (const ir::ValueInfo* vp : live) biggest = std::max(biggest, ir::shape_elements(vp->type.shape));
  int biggest_loads = 0;
  bool biggest_loads_16bit = true;
  for_each_op(fn.body, [&](const ir::Op& op) {
    has_mma = has_mma || op.kind == ir::OpKind::Mma || op.kind == ir::OpKind::GemmLoop ||
              op.kind == ir::OpKind::AttentionLoop;
    if (op.kind == ir::OpKind::Load && ir::shape_elements(op.tile_shape) == biggest) {
      ++biggest_loads;
      biggest_loads_16bit = biggest_loads_16bit && dtype_bits(fn.type(op.results[0]).dtype) == 16;
    }
  });
  const bool big_rows = plan.threads == kMaxThreads && !has_mma && biggest == kMaxThreads * kBigTileElemsPerThread &&
                        biggest_loads >= kBigTileMinLoads;
  const bool capped_16bit_rows = big_rows && biggest_loads_16bit && fn.occupancy > 0;
  plan.whole_tile_split = find_whole_tile_split(fn, plan.broadcast_loads, may_be_whole, capped_16bit_rows);
  // A kernel that tests its block-known tiles once already runs a fast copy fitted to its cap; a
  // second, launch-time copy measured slower there (layer norm bf16: 0.998x -> 0.991x Triton on
  // the H200, docs/perf-notes.md round 12).
  if (!plan.whole_tile_split.block_known_tiles)
    plan.launch_whole = find_launch_whole_accesses(fn, plan.broadcast_loads, may_be_whole);
  if (big_rows) plan.min_blocks_per_sm = kBigTileBlocksPerSm;  // occupancy=, when given, wins
  // The copy for whole big tiles. A tile of 8192 elements (the rows of softmax, layer norm, RMS
  // norm) held by 256 threads is 32 elements a thread; in the launcher's copy for whole tiles,
  // 512 threads hold 16 each, and a cap on registers keeps blocks in flight: 4 per SM (2048
  // threads, 32 registers) for kernels that load one such tile (softmax), 3 (40 registers) for
  // kernels that load two or more (RMS norm's x and w, layer norm's x, w and b). That is the
  // shape of Triton's 16-warp row kernels: at 256 threads the same code ran 0.3-0.8 % behind
  // them on the H100. At 3 blocks softmax ran 0.96-0.98x, at 4 RMS norm 1.000x against 1.005x
  // at 3. The checked copy keeps 256 threads: it reads ragged rows element by element, and at
  // 512 threads, with or without the cap, it ran 9-23 % slower (fewer rows in flight, or
  // spills). docs/perf-notes.md, round 14. The runtime keeps such kernels in 32 registers:
  // reduce_all's butterfly and truediv's one range test (reduce.cuh, divide.cuh). A kernel's
  // occupancy= keeps one shape for both copies.
  const bool whole_big_rows = plan.threads == kMaxThreads && !has_mma &&
                              biggest == kMaxThreads * kBigTileElemsPerThread && fn.occupancy == 0 &&
                              !plan.launch_whole.empty();
  if (whole_big_rows) {
    plan.whole_copy_threads = kWholeCopyThreads;
    plan.whole_copy_min_blocks_per_sm =
        biggest_loads >= kWholeCopyManyLoads ? kWholeCopyManyLoadsBlocksPerSm : kWholeCopyBlocksPerSm;
  }
  // Scratch for `threads` threads (a reduction keeps one partial per warp).
  auto find_scratch = [&](int threads) {
    plan.smem_bytes = plan.hopper_smem_bytes = 0;
    for_each_op(fn.body, [&](const ir::Op& op) {
      if (!op.results.empty() && (plan.broadcast_loads.folded.count(op.results[0]) ||
                                  plan.broadcast_loads.absorbed.count(op.results[0])))
        return;  // no shared memory: read from memory in the destination layout
      if (op.kind == ir::OpKind::Reduce) plan.smem_bytes = std::max(plan.smem_bytes, reduce_scratch_bytes(fn, op, threads));
      if (op.kind == ir::OpKind::Print) plan.smem_bytes = std::max(plan.smem_bytes, print_scratch_bytes(fn, op));
      plan.smem_bytes = std::max(plan.smem_bytes, shape_op_scratch_bytes(fn, op, threads));
      if (op.kind == ir::OpKind::Mma) plan.smem_bytes = std::max(plan.smem_bytes, mma_smem_bytes(fn, op));
      if (op.kind == ir::OpKind::AttentionLoop) plan.smem_bytes = std::max(plan.smem_bytes, attention_loop_smem_bytes(fn, op));
      if (op.kind == ir::OpKind::GemmLoop) {
        plan.smem_bytes = std::max(plan.smem_bytes, gemm_loop_smem_bytes(fn, op));
        plan.hopper_smem_bytes = std::max(plan.hopper_smem_bytes, gemm_hopper_smem_bytes(fn, op));
      }
      if (op.kind != ir::OpKind::Broadcast && op.kind != ir::OpKind::Reshape) return;
      const ir::TileType& src = fn.type(op.operands[0]);
      const ir::TileType& dst = fn.type(op.results[0]);
      if (src.is_scalar()) return;  // a splat: every thread already holds the scalar
      if (dst.is_scalar()) {        // item(): the owner hands its element to everyone
        plan.smem_bytes = std::max<size_t>(plan.smem_bytes, dtype_bytes(dst.dtype));
        return;
      }
      if (op.kind == ir::OpKind::Reshape && plan.same_placement(src.shape, dst.shape)) return;
      plan.smem_bytes = std::max<size_t>(plan.smem_bytes, ir::shape_elements(src.shape) * dtype_bytes(src.dtype));
    });
  };
  // Scratch serves both copies. A launcher that sets attributes on its kernel (dynamic shared
  // memory) or builds tensor maps for it does that for one kernel symbol: such a kernel stays a
  // single copy, so first it gives up the second shape, and then, if that is not enough, the
  // second copy.
  auto single_copy = [&] {
    return std::max(plan.smem_bytes, plan.hopper_smem_bytes) > kMaxStaticScratchBytes ||
           !tensor_map_params(fn).empty();
  };
  find_scratch(std::max(plan.threads, plan.whole_copy_threads));
  if (plan.whole_copy_threads > 0 && single_copy()) {
    plan.whole_copy_threads = plan.whole_copy_min_blocks_per_sm = 0;
    find_scratch(plan.threads);
  }
  if (single_copy()) plan.launch_whole.clear();
  // Each block of a CTA has its own scratch (16-byte aligned): fewer blocks where they would
  // not fit in static shared memory together.
  while (plan.blocks_per_cta > 1 && align16(plan.smem_bytes) * static_cast<size_t>(plan.blocks_per_cta) >
                                        kMaxStaticScratchBytes)
    plan.blocks_per_cta /= 2;
  if (plan.blocks_per_cta > 1) plan.smem_bytes = align16(plan.smem_bytes);
  if (plan.hopper_smem_bytes <= plan.smem_bytes) plan.hopper_smem_bytes = 0;
  else plan.hopper_smem_bytes = std::max(plan.hopper_smem_bytes, plan.smem_bytes);
  return plan;
}

}  // namespace tile2cu
