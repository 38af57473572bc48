// tile2cu/array_slice.cuh: Array.slice, a view of an array narrowed along one axis (no copy).
#pragma once

#include "std.cuh"

#include "array.cuh"
#include "types.cuh"

namespace tile2cu {

// Elements [start, stop) of `a` along Axis: the same strides, the base moved to `start`, the
// extent stop - start. cuTile requires 0 <= start <= stop <= shape[Axis] (start < shape[Axis]);
// bounds outside that are undefined behaviour, as there. The offset is computed in int64.
template <int Axis, class T, int Rank, class Index>
TILE2CU_DEVICE Array<T, Rank, Index> slice(Array<T, Rank, Index> a, int64_t start, int64_t stop) {
  static_assert(Axis >= 0 && Axis < Rank, "slice: axis out of range");
  a.data += start * static_cast<int64_t>(a.stride[Axis]);
  a.shape[Axis] = static_cast<Index>(stop - start);
  return a;
}

}  // namespace tile2cu
