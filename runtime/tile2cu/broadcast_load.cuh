// tile2cu/broadcast_load.cuh: a loaded side tile broadcast over a bigger one, read straight from
// memory.
//
//   load_broadcast<DstL, SrcL, LoadL, Pad>(a, {i, j, ..})
//
// gives what broadcast_to<DstL>(reshape<SrcL>(load<LoadL, Pad>(a, {i, j, ..}))) gives (the
// reshape keeps row-major order, so SrcL and LoadL hold the same elements), without moving
// elements between threads: each thread reads the elements its own slots need. The side tile is
// small (a bias row, a scale column), so the repeated reads hit L1/L2, and there is no shared
// memory and no barrier for the loads behind it to wait on. Addresses are worked out once per
// run, and a run of consecutive elements is one vector access where it can be.
#pragma once

#include "broadcast.cuh"

namespace tile2cu {

template <class DstL, class SrcL, class LoadL, PaddingMode Pad = PaddingMode::Undetermined, class T,
          int R, class I>
TILE2CU_DEVICE Tile<T, DstL> load_broadcast(const Array<T, R, I>& a, const int64_t (&index)[R]) {
  using D = typename DstL::shape;
  using S = typename SrcL::shape;
  using L = typename LoadL::shape;
  static_assert(S::size == L::size, "load_broadcast: the reshape must keep the element count");
  static_assert(L::rank == R, "load_broadcast: the loaded tile's rank must equal the array's");
  static_assert(detail::broadcastable<S, D>(), "load_broadcast: shapes do not broadcast");
  constexpr int V = DstL::kVec;
  // A run of the destination reads one source element (its last dim is stretched) or V
  // consecutive ones, which stay inside one row of the loaded tile when that row holds V.
  constexpr bool last_stretched = S::dim(S::rank - 1) != D::dim(D::rank - 1);
  constexpr int kReads = last_stretched ? 1 : V;
  constexpr bool run_in_row = L::dim(R - 1) % kReads == 0;
  const T pad = padding_value<T, Pad>();
  Tile<T, DstL> dst;
#pragma unroll
  for (int j = 0; j < DstL::kRunsPerThread; ++j) {
    const int s0 = j * V;
    if (!DstL::owns(s0)) continue;
    int flat = 0;  // row-major index into the side tile of the run's first element
#pragma unroll
    for (int k = 0; k < D::rank; ++k)
      if (S::dim(k) != 1) flat += DstL::coord(s0, k) * S::stride(k);
    T vals[kReads];
    if constexpr (run_in_row) {
      bool in = true;
      int64_t offset = 0, last = 0;
#pragma unroll
      for (int k = 0; k < R; ++k) {
        const int64_t x = index[k] * L::dim(k) + (flat / L::stride(k)) % L::dim(k);
        if (k < R - 1) in = in && x >= 0 && x < int64_t(a.shape[k]);
        else last = x;
        offset += x * int64_t(a.stride[k]);
      }
      const T* src = a.data + offset;
      const int64_t len = a.shape[R - 1], step = a.stride[R - 1];
      if (in && step == 1 && last >= 0 && last + kReads <= len && detail::aligned<kReads>(src)) {
        detail::load_run<kReads>(vals, src);
      } else {
#pragma unroll
        for (int i = 0; i < kReads; ++i)
          vals[i] = in && last + i >= 0 && last + i < len ? src[i * step] : pad;
      }
    } else {  // element by element: a run spans rows of the loaded tile
#pragma unroll
      for (int i = 0; i < kReads; ++i) {
        bool in = true;
        int64_t offset = 0;
#pragma unroll
        for (int k = 0; k < R; ++k) {
          const int64_t x = index[k] * L::dim(k) + ((flat + i) / L::stride(k)) % L::dim(k);
          in = in && x >= 0 && x < int64_t(a.shape[k]);
          offset += x * int64_t(a.stride[k]);
        }
        vals[i] = in ? a.data[offset] : pad;
      }
    }
#pragma unroll
    for (int i = 0; i < V; ++i) dst.v[s0 + i] = vals[last_stretched ? 0 : i];
  }
  return dst;
}

}  // namespace tile2cu
