// tile2cu/memory.cuh: tile loads and stores between global memory and registers.
//
// load<L, Pad, Order<...>>(a, {i, j, ..}) reads the tile at tile index (i, j, ..): with the axis
// order Axes (identity by default), tile element u comes from the array position e where
//     e[Axes[k]] = index[k] * L::shape::dim(k) + u[k]      for every tile axis k.
// Out-of-bounds elements read as the padding value; store() drops them. The index list is int64
// whatever the array's index type, so int, unsigned (blockIdx.x) and int64 values all fit in it.
//
// Each thread moves its runs of Vec elements (layout.cuh). A run is contiguous in memory when the
// tile's last axis walks the array's last axis and that axis has stride 1; if the run is then
// also in bounds and aligned, it moves as one vector access (16 bytes at most each). Otherwise
// it falls back to element-wise accesses with bounds checks.
#pragma once

#include "array.cuh"
#include "tile.cuh"

namespace tile2cu {

template <class T, PaddingMode Pad>
TILE2CU_HD T padding_value() {
  const float inf = bitcast<float>(0x7f800000u);
  switch (Pad) {  // from_float gives 0 for integers: cuTile only allows zero padding for them
    case PaddingMode::NegZero: return from_float<T>(-0.0f);
    case PaddingMode::Nan: return from_float<T>(bitcast<float>(0x7fc00000u));
    case PaddingMode::PosInf: return from_float<T>(inf);
    case PaddingMode::NegInf: return from_float<T>(-inf);
    default: return convert<T>(0);
  }
}

namespace detail {

// An unsigned type of `Bytes` bytes: the unit of one vector memory access.
template <int Bytes> struct raw_bits;
template <> struct raw_bits<1> { using type = uint8_t; };
template <> struct raw_bits<2> { using type = uint16_t; };
template <> struct raw_bits<4> { using type = uint32_t; };
template <> struct raw_bits<8> { using type = uint2; };
template <> struct raw_bits<16> { using type = uint4; };

// Bytes per access for a run of N values of T: the whole run, capped at 16 bytes.
template <int N, class T>
inline constexpr int kAccessBytes = N * int(sizeof(T)) < 16 ? N * int(sizeof(T)) : 16;

template <int N, class T>
TILE2CU_HD bool aligned(const T* p) {
  if constexpr (kAccessBytes<N, T> == int(sizeof(T))) return true;
  else return reinterpret_cast<uintptr_t>(p) % kAccessBytes<N, T> == 0;
}

// Move a run of N values between registers and (global or shared) memory aligned for it.
// memcpy on the register side keeps the registers typed as T (no spill to local memory).
template <int N, class T>
TILE2CU_DEVICE void load_run(T* regs, const T* mem) {
  constexpr int B = kAccessBytes<N, T>;
  using Raw = typename raw_bits<B>::type;
#pragma unroll
  for (int i = 0; i < N * int(sizeof(T)) / B; ++i) {
    const Raw r = reinterpret_cast<const Raw*>(mem)[i];
    memcpy(reinterpret_cast<char*>(regs) + i * B, &r, B);
  }
}
template <int N, class T>
TILE2CU_DEVICE void store_run(T* mem, const T* regs) {
  constexpr int B = kAccessBytes<N, T>;
  using Raw = typename raw_bits<B>::type;
#pragma unroll
  for (int i = 0; i < N * int(sizeof(T)) / B; ++i) {
    Raw r;
    memcpy(&r, reinterpret_cast<const char*>(regs) + i * B, B);
    reinterpret_cast<Raw*>(mem)[i] = r;
  }
}

// Copies a run read element by element into the tile as the 4-byte words a vector load fills.
// Both paths of a load then join on the same words: 16-bit pairs stay packed in one register, and
// the fast path needs no instruction to split them apart before the join.
template <int N, class T>
TILE2CU_DEVICE void copy_run_as_words(T* regs, const T* run) {
  if constexpr (sizeof(T) == 2 && N % 2 == 0) {
#pragma unroll
    for (int i = 0; i < N; i += 2) {
      uint16_t lo, hi;
      memcpy(&lo, &run[i], 2);
      memcpy(&hi, &run[i + 1], 2);
      const uint32_t word = uint32_t(lo) | uint32_t(hi) << 16;
      memcpy(&regs[i], &word, 4);
    }
  } else {
#pragma unroll
    for (int i = 0; i < N; ++i) regs[i] = run[i];
  }
}

// Where the run starting at `slot` lies in the array.
struct RunPos {
  int64_t offset;  // element offset of its first element
  int64_t last;    // position of its first element along the array axis the run walks
  bool others_in;  // every other coordinate is in bounds
};
template <class L, class Ord, class T, int R, class I>
TILE2CU_DEVICE RunPos run_pos(const Array<T, R, I>& a, const int64_t (&index)[R], int slot) {
  RunPos p{0, 0, true};
#pragma unroll
  for (int k = 0; k < R; ++k) {
    const int d = Ord::axis(k);
    const int64_t x = index[k] * L::shape::dim(k) + L::coord(slot, k);
    p.offset += x * int64_t(a.stride[d]);
    if (k == R - 1) p.last = x;
    else p.others_in = p.others_in && x >= 0 && x < int64_t(a.shape[d]);
  }
  return p;
}

// A permuted last axis, or threads that own nothing, always take the per-run path.
template <class L, class Ord, int R>
TILE2CU_HD constexpr bool may_be_whole() { return Ord::axis(R - 1) == R - 1 && L::kRuns % L::kThreads == 0; }

// The whole-tile fast path. When the tile lies entirely inside the array, its last axis walks
// the array's last axis with stride 1 and every run starts 16-byte aligned (the tile's first
// element aligned, every other stride a multiple of the access), no run needs a check: each one
// is a vector access at a fixed distance from the tile's first element. One test per tile
// replaces a bounds and alignment test per run, and the addresses become a base plus immediates.
template <class L, class Ord, class T, int R, class I>
TILE2CU_HD bool whole_tile_fast(const Array<T, R, I>& a, const int64_t (&index)[R], int64_t& base) {
  constexpr int V = L::kVec;
  constexpr int B = kAccessBytes<V, T>;
  if constexpr (!may_be_whole<L, Ord, R>()) {
    return false;
  } else {
    bool ok = a.stride[R - 1] == 1;
    base = 0;
#pragma unroll
    for (int k = 0; k < R; ++k) {
      const int d = Ord::axis(k);
      const int64_t lo = index[k] * L::shape::dim(k);
      ok = ok && lo >= 0 && lo + L::shape::dim(k) <= int64_t(a.shape[d]);
      if (d != R - 1) ok = ok && int64_t(a.stride[d]) * int64_t(sizeof(T)) % B == 0;
      base += lo * int64_t(a.stride[d]);
    }
    return ok && aligned<V>(a.data + base);
  }
}

// Distance of the run at `slot` from the tile's first element, on the fast path (stride 1 along
// the last axis, so the run's last coordinate adds as is).
template <class L, class Ord, class T, int R, class I>
TILE2CU_DEVICE int64_t run_offset_in_tile(const Array<T, R, I>& a, int slot) {
  int64_t off = L::coord(slot, R - 1);
#pragma unroll
  for (int k = 0; k < R - 1; ++k) off += int64_t(L::coord(slot, k)) * int64_t(a.stride[Ord::axis(k)]);
  return off;
}

// The fast path's loads: the tile starts at element `base` and whole_tile_fast() held.
template <class L, class Ord, class T, int R, class I>
TILE2CU_DEVICE void load_whole_tile(const Array<T, R, I>& a, int64_t base, Tile<T, L>& t) {
#pragma unroll
  for (int j = 0; j < L::kRunsPerThread; ++j)
    load_run<L::kVec>(&t.v[j * L::kVec], a.data + base + run_offset_in_tile<L, Ord>(a, j * L::kVec));
}

// The fast path's stores, as load_whole_tile.
template <class L, class Ord, class T, int R, class I>
TILE2CU_DEVICE void store_whole_tile(const Array<T, R, I>& a, int64_t base, const Tile<T, L>& t) {
#pragma unroll
  for (int j = 0; j < L::kRunsPerThread; ++j)
    store_run<L::kVec>(a.data + base + run_offset_in_tile<L, Ord>(a, j * L::kVec), &t.v[j * L::kVec]);
}

template <class L, class Ord, int R>
TILE2CU_HD constexpr void check_tile_access() {
  static_assert(L::shape::rank == R, "tile rank must equal array rank");
  static_assert(Ord::valid_for(R), "Order must be a permutation of the array axes");
}

}  // namespace detail

template <class L, PaddingMode Pad = PaddingMode::Undetermined, class Ord = Order<>, class T, int R,
          class I>
TILE2CU_DEVICE Tile<T, L> load(const Array<T, R, I>& a, const int64_t (&index)[R]) {
  detail::check_tile_access<L, Ord, R>();
  constexpr int V = L::kVec;
  constexpr int dl = Ord::axis(R - 1);  // the array axis that runs walk
  const int64_t len = a.shape[dl], step = a.stride[dl];
  const bool contiguous = dl == R - 1 && step == 1;
  const T pad = padding_value<T, Pad>();
  Tile<T, L> t;
  int64_t base;
  if (detail::whole_tile_fast<L, Ord>(a, index, base)) {
    detail::load_whole_tile<L, Ord>(a, base, t);
    return t;
  }
#pragma unroll
  for (int j = 0; j < L::kRunsPerThread; ++j) {
    const int s0 = j * V;
    const detail::RunPos p = detail::run_pos<L, Ord>(a, index, s0);
    const T* src = a.data + p.offset;
    const bool in = L::owns(s0) && p.others_in;
    if (contiguous && in && p.last >= 0 && p.last + V <= len && detail::aligned<V>(src)) {
      detail::load_run<V>(&t.v[s0], src);
    } else {
      T run[V];
#pragma unroll
      for (int i = 0; i < V; ++i) {
        const int64_t x = p.last + i;
        run[i] = in && x >= 0 && x < len ? src[i * step] : pad;
      }
      detail::copy_run_as_words<V>(&t.v[s0], run);
    }
  }
  return t;
}

// ---- tiles tested once ------------------------------------------------------------------
// A load of a kernel parameter at a constant tile index reads the same tile in every block; in a
// row kernel that asks for a register cap (occupancy=), every tile whose index the block knows
// from the start is tested too. The generated code tests once whether all of them take the fast path, and runs
// the rest of the kernel through with_whole_tiles: that part is compiled twice, and in the copy
// for `true` those accesses have no checked path. (A checked path that never runs still costs:
// the two paths join before the next access issues.) with_whole_tiles_outlined puts the copy for
// `false` (ragged edges, unaligned views) in a function of its own, so that ptxas allocates its
// registers apart from the fast copy's.

// Whether the tile at `index` takes load's whole-tile fast path.
template <class L, class Ord = Order<>, class T, int R, class I>
TILE2CU_HD bool whole_tile(const Array<T, R, I>& a, const int64_t (&index)[R]) {
  detail::check_tile_access<L, Ord, R>();
  int64_t base;
  return detail::whole_tile_fast<L, Ord>(a, index, base);
}

#if !defined(__CUDACC_RTC__)  // the launcher's side, host code: NVRTC compiles kernels only
// A tile index term the launcher can evaluate for every block: a literal, or ct.bid(axis).
struct LaunchIndex {
  int block_axis = -1;  // -1: `literal`
  int64_t literal = 0;
  constexpr LaunchIndex(int64_t value) : literal(value) {}  // NOLINT: a literal reads as itself
  static constexpr LaunchIndex bid(int axis) {
    LaunchIndex i(0);
    i.block_axis = axis;
    return i;
  }
};

// On the host, before a launch: whether whole_tile() holds for the tile at `index` in every block
// of `grid` (identity order). Then the kernel's copy for kTilesWhole = true, which has no
// checked path for that access, is safe to run (the emitter's launch_whole_tiles.hpp).
// It asks the kernel's own test for two blocks, the first and the last. Along each axis the
// blocks' tile indices run over a range, so the bounds hold for all blocks when they hold at
// both ends; strides are the same for every block; and from one block to the next a tile's
// first element moves by whole vector accesses (a tile's extent is a power of two of at least one
// run), so every block's tile is aligned as the first one is.
template <class L, class T, int R, class I>
inline bool whole_in_every_block(const Array<T, R, I>& a, const LaunchIndex (&index)[R], dim3 grid) {
  const unsigned blocks[3] = {grid.x, grid.y, grid.z};
  int64_t first[R], last[R];
  for (int k = 0; k < R; ++k) {
    first[k] = last[k] = index[k].literal;
    if (index[k].block_axis >= 0) {
      if (index[k].block_axis > 2 || blocks[index[k].block_axis] == 0) return false;
      first[k] = 0;
      last[k] = int64_t(blocks[index[k].block_axis]) - 1;
    }
  }
  return whole_tile<L>(a, first) && whole_tile<L>(a, last);
}

// Whether a kernel's copy for whole tiles keeps at least the occupancy (threads per SM) of its
// checked copy. Without checked paths every load issues at once, and ptxas may give that copy
// more registers than the checked one: then fewer threads fit on an SM, which costs more than the
// checks save. The copies may run on different thread counts (a big tile's copy for whole tiles,
// layout_plan.cpp). The launcher asks once per kernel (the answer depends on the compiled code).
template <class Kernel>
inline bool keeps_occupancy(Kernel whole_copy, int whole_threads, Kernel checked_copy, int checked_threads,
                            size_t smem_bytes) {
  int whole = 0, checked = 0;
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&whole, whole_copy, whole_threads, smem_bytes) == cudaSuccess &&
         cudaOccupancyMaxActiveBlocksPerMultiprocessor(&checked, checked_copy, checked_threads, smem_bytes) ==
             cudaSuccess &&
         whole * whole_threads >= checked * checked_threads;
}

#endif  // !__CUDACC_RTC__

// load() where whole_tile() was tested before: `whole` is std::true_type when it held (no test,
// no checked path), std::false_type when it did not (the ordinary load).
template <class L, PaddingMode Pad = PaddingMode::Undetermined, class Ord = Order<>, class T, int R,
          class I, bool Whole>
TILE2CU_DEVICE Tile<T, L> load(const Array<T, R, I>& a, const int64_t (&index)[R],
                               std::integral_constant<bool, Whole>) {
  if constexpr (!Whole || !detail::may_be_whole<L, Ord, R>()) {
    return load<L, Pad, Ord>(a, index);
  } else {
    int64_t base;
    detail::whole_tile_fast<L, Ord>(a, index, base);  // for `base`; the test is known to hold
    Tile<T, L> t;
    detail::load_whole_tile<L, Ord>(a, base, t);
    return t;
  }
}

template <class Body>
TILE2CU_DEVICE void with_whole_tiles(bool whole, Body&& body) {
  if (whole) body(std::true_type{});
  else body(std::false_type{});
}

// A mask that the tests prove all true (`arange(TN) < a.shape[d]`, where a tested tile spans TN
// elements of a's axis d): a constant in the copy for `true`, so its selects fold away.
template <class T, class L, bool Whole>
TILE2CU_DEVICE Tile<T, L> true_when_whole(std::integral_constant<bool, Whole>, const Tile<T, L>& mask) {
  if constexpr (Whole) return full<L>(T(true));
  else return mask;
}

namespace detail {
template <class Body>
__device__ __noinline__ void run_checked_copy(Body body) {
  body(std::false_type{});
}
}  // namespace detail

// As with_whole_tiles, the copy for `false` out of line. `body` captures by value: that copy
// runs on a copy of it.
template <class Body>
TILE2CU_DEVICE void with_whole_tiles_outlined(bool whole, Body body) {
  if (whole) body(std::true_type{});
  else detail::run_checked_copy(body);
}

template <class Ord = Order<>, class T, int R, class I, class L>
TILE2CU_DEVICE void store(const Array<T, R, I>& a, const int64_t (&index)[R], const Tile<T, L>& t) {
  detail::check_tile_access<L, Ord, R>();
  constexpr int V = L::kVec;
  constexpr int dl = Ord::axis(R - 1);
  const int64_t len = a.shape[dl], step = a.stride[dl];
  const bool contiguous = dl == R - 1 && step == 1;
  int64_t base;
  if (detail::whole_tile_fast<L, Ord>(a, index, base)) {
    detail::store_whole_tile<L, Ord>(a, base, t);
    return;
  }
#pragma unroll
  for (int j = 0; j < L::kRunsPerThread; ++j) {
    const int s0 = j * V;
    const detail::RunPos p = detail::run_pos<L, Ord>(a, index, s0);
    T* dst = a.data + p.offset;
    if (!L::owns(s0) || !p.others_in) continue;
    if (contiguous && p.last >= 0 && p.last + V <= len && detail::aligned<V>(dst)) {
      detail::store_run<V>(dst, &t.v[s0]);
    } else {
#pragma unroll
      for (int i = 0; i < V; ++i) {
        const int64_t x = p.last + i;
        if (x >= 0 && x < len) dst[i * step] = t.v[s0 + i];
      }
    }
  }
}

// store() where whole_tile() was tested before, as the whole-aware load() above.
template <class Ord = Order<>, class T, int R, class I, class L, bool Whole>
TILE2CU_DEVICE void store(const Array<T, R, I>& a, const int64_t (&index)[R], const Tile<T, L>& t,
                          std::integral_constant<bool, Whole>) {
  if constexpr (!Whole || !detail::may_be_whole<L, Ord, R>()) {
    store<Ord>(a, index, t);
  } else {
    int64_t base;
    detail::whole_tile_fast<L, Ord>(a, index, base);  // for `base`; the test is known to hold
    detail::store_whole_tile<L, Ord>(a, base, t);
  }
}

// Rank-0 access: `index` is an element index (of a 0-d array: `{}`, one unused entry, see
// kStoredDims). Every thread gets the loaded value.
template <PaddingMode Pad = PaddingMode::Undetermined, class T, int R, class I>
TILE2CU_DEVICE T load_scalar(const Array<T, R, I>& a, const int64_t (&index)[kStoredDims<R>]) {
  int64_t offset = 0;
  bool in = true;
#pragma unroll
  for (int k = 0; k < R; ++k) {
    in = in && index[k] >= 0 && index[k] < int64_t(a.shape[k]);
    offset += index[k] * int64_t(a.stride[k]);
  }
  return in ? a.data[offset] : padding_value<T, Pad>();
}

// One element; dropped when out of bounds. The generated code calls it inside once_per_block
// (block_uniform.cuh), so a block stores it once.
template <class T, int R, class I>
TILE2CU_DEVICE void store_scalar(const Array<T, R, I>& a, const int64_t (&index)[kStoredDims<R>], id_t<T> value) {
  int64_t offset = 0;
  bool in = true;
#pragma unroll
  for (int k = 0; k < R; ++k) {
    in = in && index[k] >= 0 && index[k] < int64_t(a.shape[k]);
    offset += index[k] * int64_t(a.stride[k]);
  }
  if (in) a.data[offset] = value;
}

}  // namespace tile2cu
