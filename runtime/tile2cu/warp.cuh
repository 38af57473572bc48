// tile2cu/warp.cuh: combining values across a warp's lanes, or across each aligned group of
// Width lanes of it (Width a power of two up to 32), with shuffles.
//
//   warp_reduce<8>(x, combine)                          // every lane: its group of 8 combined
//   warp_exclusive_scan<32>(x, identity, combine, sum)  // what the lanes before this one add up to
//
// Values of any trivially copyable type move as 4-byte words, so argmax's (value, index) pairs
// and tuples of values shuffle like scalars. The order of the lanes is kept: a combine always takes
// the lower lanes' value first, so a combine that is associative but not commutative gives the
// in-order result, and every lane of a group ends with the same bits.
//
// These were CUB's WarpReduce and WarpScan. The shuffle steps are the same as theirs, but CUB's
// headers cost NVRTC about 2.6 s of front end in every cold build of a kernel with a reduction
// (docs/python-launcher.md, "Where NVRTC's time goes"), most of a row kernel's first launch.
#pragma once

#include "layout.cuh"

namespace tile2cu::detail {

// Moves `value` through `shuffle` (one of the __shfl_*_sync intrinsics on a 4-byte word).
template <class T, class Shuffle>
TILE2CU_DEVICE T shuffle_words(const T& value, Shuffle shuffle) {
  unsigned words[(sizeof(T) + 3) / 4] = {};
  memcpy(words, &value, sizeof(T));
#pragma unroll
  for (unsigned& w : words) w = shuffle(w);
  T out;
  memcpy(&out, words, sizeof(T));
  return out;
}

// The value of lane (this lane ^ step). A butterfly partner, not a computed lane: shfl.idx with a
// computed lane cost layer_norm_bwd_dx 8 registers more than shfl.bfly.
template <class T>
TILE2CU_DEVICE T shuffle_xor(const T& value, int step, unsigned lanes = 0xffffffffu) {
  return shuffle_words(value, [&](unsigned w) { return __shfl_xor_sync(lanes, w, step); });
}

// Every lane of each group of Width ends with combine over the group's values, in lane order.
template <int Width, class T, class Combine>
TILE2CU_DEVICE T warp_reduce(T value, Combine combine) {
  static_assert(Width >= 1 && Width <= 32 && (Width & (Width - 1)) == 0, "a power of two up to 32");
  const unsigned lanes = block_lanes<Width>();
  const int lane = int(threadIdx.x % 32);
#pragma unroll
  for (int step = 1; step < Width; step *= 2) {
    const T other = shuffle_xor(value, step, lanes);
    value = lane & step ? combine(other, value) : combine(value, other);
  }
  return value;
}

// What the lanes before this one in its group of Width combine to (identity in the first lane),
// with the whole group's total in `total`. A Kogge-Stone scan: log2(Width) shuffles up, then the
// total from the last lane and the result shifted by one lane; the identity is combined in
// front of every prefix, as an exclusive scan with an initial value does.
template <int Width, class T, class Combine>
TILE2CU_DEVICE T warp_exclusive_scan(T value, const T& identity, Combine combine, T& total) {
  static_assert(Width >= 1 && Width <= 32 && (Width & (Width - 1)) == 0, "a power of two up to 32");
  const unsigned lanes = block_lanes<Width>();
  const int lane = int(threadIdx.x % Width);
  T inclusive = value;
#pragma unroll
  for (int step = 1; step < Width; step *= 2) {
    const T before = shuffle_words(inclusive, [&](unsigned w) { return __shfl_up_sync(lanes, w, step, Width); });
    if (lane >= step) inclusive = combine(before, inclusive);
  }
  total = shuffle_words(inclusive, [&](unsigned w) { return __shfl_sync(lanes, w, Width - 1, Width); });
  inclusive = combine(identity, inclusive);
  const T exclusive = shuffle_words(inclusive, [&](unsigned w) { return __shfl_up_sync(lanes, w, 1, Width); });
  return lane == 0 ? identity : exclusive;
}

}  // namespace tile2cu::detail
