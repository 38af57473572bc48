// tile2cu/shape.cuh: layout-changing tile operations: permute / transpose, cat, extract,
// insert, and pack_to_bytes / unpack_from_bytes (reinterpret).
//
// Each moves elements between threads through the shared-memory scratch buffer `smem`, as
// broadcast.cuh does: owners write their elements, one barrier, every thread reads what its
// slots of the result need, and a last barrier so that the caller may reuse the buffer at once.
// Every thread of the CTA must make the call. The generated code sizes the buffer with the
// *_smem_bytes rules below.
#pragma once

#include "broadcast.cuh"

namespace tile2cu {

namespace detail {

// Permute's buffer puts one padding element after every kPermutePadEvery<S> source elements (a
// source row, at least 32): a thread reading down a column of a row-major tile then meets a new
// bank on every row instead of the same one.
template <class S>
inline constexpr int kPermutePadEvery = S::rank == 0 || S::dim(S::rank - 1) < 32 ? 32 : S::dim(S::rank - 1);
template <class S>
TILE2CU_HD constexpr int permute_slot(int e) { return e + e / kPermutePadEvery<S>; }

// A 2-D transpose whose source and result both move in whole 16-byte runs takes a faster path:
// runs are stored whole, and run c of source row r lands at run position c ^ ((r / Vec) % 8) of
// its row (an XOR swizzle). Reading down a column, a warp then meets 8 different run positions
// for 8 consecutive groups of Vec rows, which spreads its reads over the banks, while the 8
// threads of a store phase still write 8 runs of one 128-byte group.
template <class T, class SrcL, class DstL, class O>
inline constexpr bool swizzled_transpose_fits =
    std::is_same_v<O, Order<1, 0>> && SrcL::shape::rank == 2 && SrcL::kVec == DstL::kVec &&
    SrcL::kVec * int(sizeof(T)) == 16 && SrcL::shape::dim(1) / SrcL::kVec >= 8 && SrcL::shape::dim(0) >= SrcL::kVec;
template <int Cols, int Vec>
TILE2CU_DEVICE int swizzled_slot(int row, int col) {
  return row * Cols + ((col / Vec) ^ ((row / Vec) % 8)) * Vec + col % Vec;
}

}  // namespace detail

template <class T, class SrcL>
inline constexpr int permute_smem_bytes = detail::permute_slot<typename SrcL::shape>(SrcL::kElems) * int(sizeof(T));

namespace detail {

template <class DstL, class T, class SrcL>
TILE2CU_DEVICE Tile<T, DstL> transpose_swizzled(const Tile<T, SrcL>& src, T* buf) {
  constexpr int kRows = SrcL::shape::dim(0), kCols = SrcL::shape::dim(1), V = SrcL::kVec;
#pragma unroll
  for (int j = 0; j < SrcL::kRunsPerThread; ++j) {
    const int s0 = j * V;
    const int e = SrcL::element(s0);
    if (SrcL::owns(s0)) store_run<V>(buf + swizzled_slot<kCols, V>(e / kCols, e % kCols), &src.v[s0]);
  }
  SrcL::sync();
  Tile<T, DstL> dst;
#pragma unroll
  for (int s = 0; s < DstL::kSlots; ++s) {  // result (i, r) is source (r, i)
    const int e = DstL::element(s);
    if (DstL::owns(s)) dst.v[s] = buf[swizzled_slot<kCols, V>(e % kRows, e / kRows)];
  }
  SrcL::sync();
  return dst;
}

template <class DstL, class O, class T, class SrcL>
TILE2CU_DEVICE Tile<T, DstL> permute_padded(const Tile<T, SrcL>& src, T* buf) {
  using S = typename SrcL::shape;
#pragma unroll
  for (int s = 0; s < SrcL::kSlots; ++s)
    if (SrcL::owns(s)) buf[permute_slot<S>(SrcL::element(s))] = src.v[s];
  SrcL::sync();
  Tile<T, DstL> dst;
#pragma unroll
  for (int s = 0; s < DstL::kSlots; ++s) {
    if (!DstL::owns(s)) continue;
    int e = 0;  // the source element: result coordinate i runs along source axis O::axis(i)
#pragma unroll
    for (int i = 0; i < S::rank; ++i) e += DstL::coord(s, i) * S::stride(O::axis(i));
    dst.v[s] = buf[permute_slot<S>(e)];
  }
  SrcL::sync();
  return dst;
}

}  // namespace detail

// Result axis i is source axis O::axis(i) (NumPy transpose(axes)). 2-D transpose is Order<1, 0>.
template <class DstL, class O, class T, class SrcL>
TILE2CU_DEVICE Tile<T, DstL> permute(const Tile<T, SrcL>& src, void* smem) {
  static_assert(SrcL::shape::rank == DstL::shape::rank && O::valid_for(SrcL::shape::rank),
                "permute: the order must be a permutation of the axes");
  if constexpr (detail::swizzled_transpose_fits<T, SrcL, DstL, O>)
    return detail::transpose_swizzled<DstL>(src, static_cast<T*>(smem));
  else
    return detail::permute_padded<DstL, O>(src, static_cast<T*>(smem));
}

template <class T, class AL, class BL>
inline constexpr int cat_smem_bytes = (AL::kElems + BL::kElems) * int(sizeof(T));

// a and b joined along Axis: result coordinate c < a's extent comes from a, the rest from b.
template <class DstL, int Axis, class T, class AL, class BL>
TILE2CU_DEVICE Tile<T, DstL> cat(const Tile<T, AL>& a, const Tile<T, BL>& b, void* smem) {
  using A = typename AL::shape;
  using B = typename BL::shape;
  using D = typename DstL::shape;
  static_assert(A::rank == D::rank && B::rank == D::rank && A::dim(Axis) + B::dim(Axis) == D::dim(Axis),
                "cat: extents must add up along the axis");
  T* buf = static_cast<T*>(smem);
  detail::spill(a, buf);
  detail::spill(b, buf + AL::kElems);
  AL::sync();
  Tile<T, DstL> dst;
#pragma unroll
  for (int s = 0; s < DstL::kSlots; ++s) {
    if (!DstL::owns(s)) continue;
    const bool from_a = DstL::coord(s, Axis) < A::dim(Axis);
    int e = 0;
#pragma unroll
    for (int d = 0; d < D::rank; ++d) {
      const int c = DstL::coord(s, d) - (d == Axis && !from_a ? A::dim(Axis) : 0);
      e += c * (from_a ? A::stride(d) : B::stride(d));
    }
    dst.v[s] = from_a ? buf[e] : buf[AL::kElems + e];
  }
  AL::sync();
  return dst;
}

// The sub-tile at grid position `index` when the source is cut into tiles of DstL's shape.
// Only the owners of the sub-tile's elements write them to the buffer, at their place in it.
template <class DstL, class T, class SrcL, int R>
TILE2CU_DEVICE Tile<T, DstL> extract(const Tile<T, SrcL>& src, const int (&index)[R], void* smem) {
  using S = typename SrcL::shape;
  using D = typename DstL::shape;
  static_assert(R == S::rank && D::rank == S::rank, "extract: one grid index per axis");
  T* buf = static_cast<T*>(smem);
#pragma unroll
  for (int s = 0; s < SrcL::kSlots; ++s) {
    if (!SrcL::owns(s)) continue;
    bool inside = true;
    int e = 0;  // flat position in the sub-tile
#pragma unroll
    for (int d = 0; d < S::rank; ++d) {
      const int c = SrcL::coord(s, d) - index[d] * D::dim(d);
      inside = inside && c >= 0 && c < D::dim(d);
      e += c * D::stride(d);
    }
    if (inside) buf[e] = src.v[s];
  }
  SrcL::sync();
  Tile<T, DstL> dst;
#pragma unroll
  for (int j = 0; j < DstL::kRunsPerThread; ++j) {
    const int s0 = j * DstL::kVec;
    if (DstL::owns(s0)) detail::load_run<DstL::kVec>(&dst.v[s0], buf + DstL::element(s0));
  }
  SrcL::sync();
  return dst;
}

// One element (extract with shape ()), handed to every thread.
template <class T, class SrcL, int R>
TILE2CU_DEVICE T extract_element(const Tile<T, SrcL>& src, const int (&index)[R], void* smem) {
  using S = typename SrcL::shape;
  static_assert(R == S::rank, "extract: one index per axis");
  int e = 0;
#pragma unroll
  for (int d = 0; d < S::rank; ++d) e += index[d] * S::stride(d);
  T* buf = static_cast<T*>(smem);
#pragma unroll
  for (int s = 0; s < SrcL::kSlots; ++s)
    if (SrcL::owns(s) && SrcL::element(s) == e) buf[0] = src.v[s];
  SrcL::sync();
  const T value = buf[0];
  SrcL::sync();
  return value;
}

// x with the sub-tile at grid position `index` (of value's shape) replaced by value.
template <class T, class L, class VL, int R>
TILE2CU_DEVICE Tile<T, L> insert(const Tile<T, L>& x, const Tile<T, VL>& value, const int (&index)[R], void* smem) {
  using S = typename L::shape;
  using V = typename VL::shape;
  static_assert(R == S::rank && V::rank == S::rank, "insert: one grid index per axis");
  T* buf = static_cast<T*>(smem);
  detail::spill(x, buf);
  L::sync();
#pragma unroll
  for (int s = 0; s < VL::kSlots; ++s) {
    if (!VL::owns(s)) continue;
    int e = 0;
#pragma unroll
    for (int d = 0; d < S::rank; ++d) e += (index[d] * V::dim(d) + VL::coord(s, d)) * S::stride(d);
    buf[e] = value.v[s];
  }
  L::sync();
  Tile<T, L> out;
#pragma unroll
  for (int j = 0; j < L::kRunsPerThread; ++j) {
    const int s0 = j * L::kVec;
    if (L::owns(s0)) detail::load_run<L::kVec>(&out.v[s0], buf + L::element(s0));
  }
  L::sync();
  return out;
}

// x with the one element at `index` replaced by a scalar (insert of a scalar value). No data
// moves between threads: the owner of that element overwrites it.
template <class T, class L, int R>
TILE2CU_DEVICE Tile<T, L> insert_element(const Tile<T, L>& x, id_t<T> value, const int (&index)[R]) {
  using S = typename L::shape;
  static_assert(R == S::rank, "insert: one index per axis");
  int e = 0;
#pragma unroll
  for (int d = 0; d < S::rank; ++d) e += index[d] * S::stride(d);
  Tile<T, L> out = x;
#pragma unroll
  for (int s = 0; s < L::kSlots; ++s)
    if (L::owns(s) && L::element(s) == e) out.v[s] = value;
  return out;
}

// The bytes of src, in row-major order, read as a rank-1 tile of U (pack_to_bytes gives uint8,
// unpack_from_bytes turns uint8 back into a dtype).
template <class DstL, class U, class T, class SrcL>
TILE2CU_DEVICE Tile<U, DstL> reinterpret(const Tile<T, SrcL>& src, void* smem) {
  static_assert(SrcL::kElems * sizeof(T) == DstL::kElems * sizeof(U), "reinterpret: byte counts differ");
  detail::spill(src, static_cast<T*>(smem));
  SrcL::sync();
  const U* buf = static_cast<const U*>(smem);
  Tile<U, DstL> dst;
#pragma unroll
  for (int j = 0; j < DstL::kRunsPerThread; ++j) {
    const int s0 = j * DstL::kVec;
    if (DstL::owns(s0)) detail::load_run<DstL::kVec>(&dst.v[s0], buf + DstL::element(s0));
  }
  SrcL::sync();
  return dst;
}

}  // namespace tile2cu
