// tile2cu/broadcast.cuh: layout changes: broadcast_to and reshape.
//
// A thread can only read its own registers, so moving elements between threads goes through
// shared memory: every owner writes its elements at their flat row-major index, one barrier,
// every thread reads the elements its new slots need, and a second barrier so the caller may
// reuse the buffer at once. The buffer must hold smem_bytes<T, SrcL> bytes, 16-byte aligned, and
// every thread of the block must make the call (it waits on them with the layout's sync()).
#pragma once

#include "memory.cuh"

namespace tile2cu {

template <class T, class SrcL>
inline constexpr int smem_bytes = SrcL::kElems * int(sizeof(T));

namespace detail {

// Owners write their runs to buf at flat element positions (a run is contiguous there too).
template <class T, class L>
TILE2CU_DEVICE void spill(const Tile<T, L>& t, T* buf) {
#pragma unroll
  for (int j = 0; j < L::kRunsPerThread; ++j) {
    const int s0 = j * L::kVec;
    if (L::owns(s0)) store_run<L::kVec>(buf + L::element(s0), &t.v[s0]);
  }
}

template <class S, class D>
TILE2CU_HD constexpr bool broadcastable() {
  if (S::rank != D::rank) return false;
  for (int k = 0; k < S::rank; ++k)
    if (S::dim(k) != D::dim(k) && S::dim(k) != 1) return false;
  return true;
}

}  // namespace detail

// NumPy broadcasting between tiles of equal rank: a source dim of 1 is repeated along that dim.
template <class DstL, class T, class SrcL>
TILE2CU_DEVICE Tile<T, DstL> broadcast_to(const Tile<T, SrcL>& src, void* smem) {
  using S = typename SrcL::shape;
  using D = typename DstL::shape;
  static_assert(detail::broadcastable<S, D>(), "broadcast_to: shapes do not broadcast");
  constexpr int V = DstL::kVec;
  constexpr bool last_stretched = S::rank > 0 && S::dim(S::rank - 1) != D::dim(D::rank - 1);
  T* buf = static_cast<T*>(smem);
  detail::spill(src, buf);
  SrcL::sync();
  Tile<T, DstL> dst;
#pragma unroll
  for (int j = 0; j < DstL::kRunsPerThread; ++j) {
    const int s0 = j * V;
    if (!DstL::owns(s0)) continue;
    int e = 0;  // flat source index of the run's first element
#pragma unroll
    for (int k = 0; k < S::rank; ++k)
      if (S::dim(k) != 1) e += DstL::coord(s0, k) * S::stride(k);
    if constexpr (last_stretched) {  // the whole run reads one source element
#pragma unroll
      for (int i = 0; i < V; ++i) dst.v[s0 + i] = buf[e];
    } else {  // the run is contiguous (and aligned) in the source too
      detail::load_run<V>(&dst.v[s0], buf + e);
    }
  }
  SrcL::sync();
  return dst;
}

// Same elements in the same row-major order, new shape and layout. When both layouts put the
// same element in the same slot of the same thread, it is a register copy: no smem, no barrier.
template <class DstL, class T, class SrcL>
TILE2CU_DEVICE Tile<T, DstL> reshape(const Tile<T, SrcL>& src, void* smem) {
  static_assert(SrcL::kElems == DstL::kElems, "reshape: element counts differ");
  Tile<T, DstL> dst;
  if constexpr (SrcL::kThreads == DstL::kThreads && SrcL::kVec == DstL::kVec) {
#pragma unroll
    for (int s = 0; s < DstL::kSlots; ++s) dst.v[s] = src.v[s];
  } else {
    T* buf = static_cast<T*>(smem);
    detail::spill(src, buf);
    SrcL::sync();
#pragma unroll
    for (int j = 0; j < DstL::kRunsPerThread; ++j) {
      const int s0 = j * DstL::kVec;
      if (DstL::owns(s0)) detail::load_run<DstL::kVec>(&dst.v[s0], buf + DstL::element(s0));
    }
    SrcL::sync();
  }
  return dst;
}

}  // namespace tile2cu

namespace tile2cu {

// The one element of a one-element tile (Tile.item()), handed to every thread.
template <class T, class L>
TILE2CU_DEVICE T item(const Tile<T, L>& t, void* smem) {
  static_assert(L::kElems == 1, "item: the tile must hold exactly one element");
  T* buf = static_cast<T*>(smem);
  if (L::owns(0)) buf[0] = t.v[0];
  L::sync();
  const T value = buf[0];
  L::sync();
  return value;
}

}  // namespace tile2cu
