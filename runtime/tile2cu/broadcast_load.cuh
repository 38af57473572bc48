// tile2cu/broadcast_load.cuh: a loaded side tile broadcast over a bigger one, read straight from
// memory.
//
//   load_broadcast<DstL, SrcL, LoadL, Pad>(a, {i, j, ..})
//
// gives what broadcast_to<DstL>(reshape<SrcL>(load<LoadL, Pad>(a, {i, j, ..}))) gives (the
// reshape keeps row-major order, so SrcL and LoadL hold the same elements), without moving
// elements between threads: each thread reads the elements its own slots need. The side tile is
// small (a bias row, a scale column), so the repeated reads hit L1/L2, and there is no shared
// memory and no barrier for the loads behind it to wait on.
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
  const T pad = padding_value<T, Pad>();
  Tile<T, DstL> dst;
#pragma unroll
  for (int s = 0; s < DstL::kSlots; ++s) {
    if (!DstL::owns(s)) continue;
    int flat = 0;  // row-major index into the side tile
#pragma unroll
    for (int k = 0; k < D::rank; ++k)
      if (S::dim(k) != 1) flat += DstL::coord(s, k) * S::stride(k);
    bool in = true;
    int64_t offset = 0;
#pragma unroll
    for (int k = 0; k < R; ++k) {
      const int64_t x = index[k] * L::dim(k) + (flat / L::stride(k)) % L::dim(k);
      in = in && x >= 0 && x < int64_t(a.shape[k]);
      offset += x * int64_t(a.stride[k]);
    }
    dst.v[s] = in ? a.data[offset] : pad;
  }
  return dst;
}

}  // namespace tile2cu
