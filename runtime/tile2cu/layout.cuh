// tile2cu/layout.cuh: tile shapes, how a tile's elements are spread over the threads of a CTA,
// and axis orders.
//
// THE LAYOUT MODEL. A cuTile block runs as one CTA of `Threads` threads (1-D). A tile is a value
// with a compile-time shape (each dim a power of two) that lives in registers, split over the
// threads. BlockedLayout<Shape, Threads, Vec> decides who holds what:
//
//   * Take the elements in row-major order and cut them into runs of Vec consecutive elements
//     (Vec divides the last dim, so a run never crosses a row).
//   * Deal the runs out round-robin: run r goes to thread r % Threads, as its (r / Threads)-th run.
//   * A thread keeps its runs in its register array v[] back to back, so slot s holds element
//         ((s / Vec) * Threads + threadIdx.x) * Vec + s % Vec.
//   * With fewer runs than threads, threads >= runs own nothing (owns(s) is false).
//   * Threads must equal blockDim.x for every layout a kernel uses, or, where a CTA runs several
//     small blocks, blockDim.x / BlocksPerCta (see BlockedLayout).
//
// Why this shape: one run is Vec contiguous elements, so a load or store of a run is a single
// vector access (Vec=4 floats = one 128-bit LDG), and neighbouring threads touch neighbouring
// runs, so a warp's accesses coalesce. Everything is a compile-time function of (slot,
// threadIdx.x): loops over slots are unrolled and v[] stays in registers.
#pragma once

#include "types.cuh"

namespace tile2cu {

namespace detail {
TILE2CU_HD constexpr bool is_pow2(int x) { return x > 0 && (x & (x - 1)) == 0; }
TILE2CU_HD constexpr int log2i(int x) { return x <= 1 ? 0 : 1 + log2i(x / 2); }
}  // namespace detail

// A compile-time tile shape. Shape<> is rank 0 (one element).
template <int... Dims>
struct Shape {
  static constexpr int rank = sizeof...(Dims);
  static constexpr int size = (1 * ... * Dims);
  static_assert((detail::is_pow2(Dims) && ...), "tile dims must be powers of two");

  // A fold rather than an array lookup: when `i` is not a compile-time constant (a loop the
  // compiler kept), this is a few selects, where an array would live in local memory.
  TILE2CU_HD static constexpr int dim(int i) {
    int d = 1, k = 0;
    ((d = k++ == i ? Dims : d), ...);
    return d;
  }
  // Distance in elements between neighbours along dim i (row-major).
  TILE2CU_HD static constexpr int stride(int i) {
    int s = 1;
    for (int k = rank - 1; k > i; --k) s *= dim(k);
    return s;
  }
};

// The lanes of this thread's warp that belong to its block, where a CTA runs several blocks of
// Threads (a power of two up to 32) lanes each: the mask for warp shuffles and __syncwarp.
template <int Threads>
TILE2CU_DEVICE unsigned block_lanes() {
  if constexpr (Threads >= 32) return 0xffffffffu;
  else return ((1u << Threads) - 1) << (threadIdx.x % 32 / Threads * Threads);
}

// Waits for the other threads of this thread's block, and makes their shared and global memory
// accesses before the wait visible to it: the whole CTA, or, where the CTA runs several blocks
// (BlocksPerCta > 1), the block's own lanes of its warp, so that blocks never wait for each other.
template <int Threads, int BlocksPerCta>
TILE2CU_DEVICE void sync_block() {
  if constexpr (BlocksPerCta == 1) __syncthreads();
  else if constexpr (Threads > 1) __syncwarp(block_lanes<Threads>());
}

// BlocksPerCta > 1: the CTA runs that many blocks side by side, Threads threads each (at most a
// warp; the generated code then says so in kBlocksPerCta). A block's threads are the Threads
// consecutive threads from (threadIdx.x / Threads) * Threads, and a layout deals runs out to them.
template <class S, int Threads, int Vec, int BlocksPerCta = 1>
struct BlockedLayout {
  using shape = S;
  static constexpr int kThreads = Threads;
  static constexpr int kBlocksPerCta = BlocksPerCta;
  static constexpr int kVec = Vec;
  static constexpr int kElems = S::size;
  static constexpr int kRuns = kElems / Vec;
  static constexpr int kRunsPerThread = kRuns > Threads ? (kRuns + Threads - 1) / Threads : 1;
  static constexpr int kSlots = kRunsPerThread * Vec;

  static_assert(Threads > 0, "need at least one thread");
  static_assert(BlocksPerCta == 1 || (Threads <= 32 && detail::is_pow2(Threads)),
                "a block that shares its CTA is a power-of-two part of a warp");
  static_assert(detail::is_pow2(Vec) && (S::rank == 0 ? Vec == 1 : S::dim(S::rank - 1) % Vec == 0),
                "Vec must be a power of two dividing the last dim (1 for rank 0)");

  // This thread's index in its block. The CTA has Threads * BlocksPerCta threads (see above):
  // told so, the compiler sees that coordinates do not wrap (the masks in coord() drop out) and
  // that a thread's runs lie at constant distances from its first, which loads and stores then
  // reach with one address and immediate offsets.
  TILE2CU_DEVICE static int thread() {
    __builtin_assume(threadIdx.x < unsigned(Threads * BlocksPerCta));
    if constexpr (BlocksPerCta == 1) return int(threadIdx.x);
    else return int(threadIdx.x) % Threads;
  }
  // Waits for the other threads of this block (sync_block). The functions that move elements
  // between threads through shared memory (broadcast, reduce, scan, shape) wait with this.
  TILE2CU_DEVICE static void sync() { sync_block<Threads, BlocksPerCta>(); }
  // Flat row-major index of the element in register slot `slot` of this thread.
  TILE2CU_DEVICE static int element(int slot) { return ((slot / Vec) * Threads + thread()) * Vec + slot % Vec; }
  TILE2CU_DEVICE static bool owns(int slot) {
    if constexpr (kRuns % Threads == 0) return true;
    else return (slot / Vec) * Threads + thread() < kRuns;
  }
  // Coordinate along `dim` of the element in `slot`. Dims are powers of two: shift and mask.
  TILE2CU_DEVICE static int coord(int slot, int dim) {
    return (element(slot) >> detail::log2i(S::stride(dim))) & (S::dim(dim) - 1);
  }
};

// Axis order of a load/store: tile axis k walks array axis Axes[k]. Order<> is the identity.
template <int... Axes>
struct Order {
  TILE2CU_HD static constexpr int axis(int k) {
    if constexpr (sizeof...(Axes) == 0) {
      return k;
    } else {
      int a = k, j = 0;  // a fold, not an array: see Shape::dim
      ((a = j++ == k ? Axes : a), ...);
      return a;
    }
  }
  // True when Axes is a permutation of 0..rank-1 (or empty).
  TILE2CU_HD static constexpr bool valid_for(int rank) {
    if (sizeof...(Axes) == 0) return true;
    if (int(sizeof...(Axes)) != rank) return false;
    int seen = 0;
    for (int k = 0; k < rank; ++k) seen |= 1 << axis(k);
    return seen == (1 << rank) - 1;
  }
};

}  // namespace tile2cu
