// tile2cu/array.cuh: the kernel-side view of a cuTile array. Plain C++ (no CUDA keywords), so
// host.hpp can include it from code built by an ordinary host compiler.
#pragma once

#include "std.cuh"

namespace tile2cu {

// Entries of a rank-R array's shape and stride arrays: R, but one (unused) for rank 0, which
// C++ arrays cannot have. A 0-d array (one element, torch.ones(())) is a pointer and nothing else.
template <int Rank>
inline constexpr int kStoredDims = Rank > 0 ? Rank : 1;

// A strided array in global memory: element (i0, .., iR-1) is at data[sum i_k * stride[k]].
// Strides count elements, not bytes. Index is the type shapes and strides fit in (int32 by
// default: smaller kernel arguments); offsets are always computed in int64.
template <class T, int Rank, class Index = int32_t>
struct Array {
  static_assert(Rank >= 0, "Array: rank must not be negative");
  using value_type = T;
  using index_type = Index;
  static constexpr int rank = Rank;
  T* data;
  Index shape[kStoredDims<Rank>];
  Index stride[kStoredDims<Rank>];
};

// How out-of-bounds elements of a load are filled.
enum class PaddingMode { Undetermined, Zero, NegZero, Nan, PosInf, NegInf };

}  // namespace tile2cu
